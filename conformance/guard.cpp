// The guarded CPU allocator (Note [Guard bytes]).
#include "conformance/guard.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "touchstone/storage.h"

namespace ts::conformance {
namespace {

constexpr size_t kGuard = 64;  // a multiple of kCpuAlignment keeps the user pointer aligned
constexpr unsigned char kPattern = 0xA5;

// The first damaged byte of a guard, or -1. check() scans every live block's guards after each
// case: one memcmp against an intact guard first.
int64_t damaged_at(const unsigned char* g) {
  static const auto intact = [] {
    std::array<unsigned char, kGuard> a;
    a.fill(kPattern);
    return a;
  }();
  if (std::memcmp(g, intact.data(), kGuard) == 0) return -1;
  for (size_t i = 0; i < kGuard; ++i) {
    if (g[i] != kPattern) return static_cast<int64_t>(i);
  }
  return -1;
}

class GuardedAllocator final : public Allocator {
 public:
  explicit GuardedAllocator(Allocator* base) : base_(base) {}
  Allocator* base() const { return base_; }

  void* allocate(size_t nbytes) override {
    auto* raw = static_cast<unsigned char*>(base_->allocate(nbytes + 2 * kGuard));
    std::memset(raw, kPattern, nbytes + 2 * kGuard);
    std::lock_guard<std::mutex> lock(mu_);
    live_[raw + kGuard] = nbytes;
    return raw + kGuard;
  }

  void deallocate(void* p) override {
    if (p == nullptr) return;
    auto* user = static_cast<unsigned char*>(p);
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = live_.find(user);
      if (it == live_.end()) {
        // Allocated before the scope began: not ours to unwrap.
        base_->deallocate(p);
        return;
      }
      const std::string d = describe(user, it->second);
      if (!d.empty() && freed_damage_.empty()) freed_damage_ = d + " (found when it was freed)";
      live_.erase(it);
    }
    base_->deallocate(user - kGuard);
  }

  // Reports the first damage and repairs every guard, so that each damage is reported once.
  std::string check() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string out = std::move(freed_damage_);
    freed_damage_.clear();
    for (const auto& [user, nbytes] : live_) {
      const std::string d = describe(user, nbytes);
      if (d.empty()) continue;
      if (out.empty()) out = d;
      std::memset(user - kGuard, kPattern, kGuard);
      std::memset(user + nbytes, kPattern, kGuard);
    }
    return out;
  }

 private:
  static std::string describe(const unsigned char* user, size_t nbytes) {
    const int64_t before = damaged_at(user - kGuard);
    if (before >= 0) {
      return "a write " + std::to_string(kGuard - static_cast<size_t>(before)) +
             " bytes before the start of a " + std::to_string(nbytes) + "-byte block";
    }
    const int64_t after = damaged_at(user + nbytes);
    if (after >= 0) {
      return "a write at byte " + std::to_string(after) + " past the end of a " +
             std::to_string(nbytes) + "-byte block";
    }
    return "";
  }

  Allocator* base_;
  std::mutex mu_;
  std::unordered_map<unsigned char*, size_t> live_;
  std::string freed_damage_;
};

// The allocator outlives every scope: storages allocated under a scope may die after it, and
// they free through the allocator they were made with.
GuardedAllocator* guarded() {
  static GuardedAllocator* g = new GuardedAllocator(get_allocator(kCPU));
  return g;
}

}  // namespace

GuardScope::GuardScope() {
  set_allocator(kCPU, guarded());
}

GuardScope::~GuardScope() {
  set_allocator(kCPU, guarded()->base());
}

std::string check_guards() {
  return guarded()->check();
}

}  // namespace ts::conformance
