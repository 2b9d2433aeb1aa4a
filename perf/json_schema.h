#pragma once
// A JSON Schema validator for the subset the report schemas use (draft 2020-12 keywords):
// type, enum, const, properties, required, additionalProperties, items, minItems, minimum,
// exclusiveMinimum, maximum, minLength, pattern, if/then/else and local $ref ("#/$defs/...").
// Other keywords are annotations and ignored; an unknown $ref is an error.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::perf {

// Every violation, as "JSON pointer: message"; empty when `instance` is valid.
std::vector<std::string> validate_json(const nlohmann::json& schema,
                                       const nlohmann::json& instance);

// The perf report schema (reports/schema/perf.schema.json, embedded at build time).
const nlohmann::json& perf_schema();

}  // namespace ts::perf
