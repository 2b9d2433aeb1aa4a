#pragma once
namespace ts {
inline constexpr const char* kVersion = "0.1.0";
}
