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

} // namespace capwatch::testing
