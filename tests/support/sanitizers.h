#pragma once

// Whether this test was built with AddressSanitizer (gcc or clang). Its quarantine holds freed
// memory (256 MiB by default) and every allocation costs several times as much, so figures of
// resident memory and of time per allocation say little there.

namespace capwatch::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAsan = true;
#else
inline constexpr bool kUnderAsan = false;
#endif
#else
inline constexpr bool kUnderAsan = false;
#endif

// Wall-time bounds in tests are there to catch a runaway (quadratic work, a hang), never to
// measure: under AddressSanitizer everything that allocates or lays out text runs several times
// slower, so each bound is widened by this one factor there.
inline constexpr int kTimeFactor = kUnderAsan ? 4 : 1;

// A runaway bound of `ms` milliseconds in a normal build, widened under AddressSanitizer.
constexpr long long runawayBoundMs(long long ms)
{
    return ms * kTimeFactor;
}

} // namespace capwatch::testing
