#pragma once
// A JSON Schema validator for the subset the report schemas use (draft 2020-12 keywords):
// type, enum, const, properties, required, additionalProperties, items, minItems, minimum,
// exclusiveMinimum, maximum, minLength, pattern, if/then/else and local $ref ("#/$defs/...").
// Other keywords are annotations and ignored; an unknown $ref is an error.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::reports {

// Every violation, as "JSON pointer: message"; empty when `instance` is valid.
std::vector<std::string> validate_json(const nlohmann::json& schema,
                                       const nlohmann::json& instance);

// The report schemas (reports/schema/*.schema.json), embedded at build time so that a report can
// be validated wherever the binary runs, and the schema_version their reports carry (a change
// that removes, renames or redefines a member bumps it; an optional new member does not).
inline constexpr int kPerfSchemaVersion = 2;
// 3: the run's identity (every filter, the shard as {index, count}, 1-based).
inline constexpr int kConformanceSchemaVersion = 5;
const nlohmann::json& perf_schema();
const nlohmann::json& conformance_schema();

}  // namespace ts::reports
