// The default Philox generator's state; see Note [Philox streams] in touchstone/random.h.
#include "touchstone/random.h"

#include <mutex>

#include "touchstone/ops.h"

namespace ts {
namespace {

std::mutex& state_mutex() {
  static std::mutex m;
  return m;
}

PhiloxState& state() {
  static PhiloxState s{kDefaultSeed, 0};
  return s;
}

}  // namespace

PhiloxState philox_state() {
  std::lock_guard<std::mutex> lock(state_mutex());
  return state();
}

void set_philox_state(PhiloxState s) {
  std::lock_guard<std::mutex> lock(state_mutex());
  state() = s;
}

PhiloxState reserve_philox_counters(uint64_t n) {
  std::lock_guard<std::mutex> lock(state_mutex());
  const PhiloxState reserved = state();
  state().offset += n;  // wraps modulo 2^64, like the counter itself
  return reserved;
}

void manual_seed(uint64_t seed) {
  set_philox_state({seed, 0});
}

}  // namespace ts
