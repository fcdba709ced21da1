// libFuzzer target: the SSE parser and the chat completion decoders on any bytes. The whole
// input is the stream (so the seeds are plain event streams); the piece sizes and, for one input
// in four, a small event size limit are drawn from a hash of it, so a run is reproducible.

#include "ssechecks.h"

#include <cstdint>
#include <cstdio>
#include <random>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::uint64_t hash = 14695981039346656037ULL; // FNV-1a
    for (std::size_t i = 0; i < size; ++i)
        hash = (hash ^ data[i]) * 1099511628211ULL;
    std::mt19937_64 random(hash);

    const qsizetype maxEventBytes
        = hash % 4 == 0 ? qsizetype(1 + random() % 512) : qsizetype(16 * 1024 * 1024);
    std::vector<qsizetype> pieces(1 + random() % 16);
    const std::uint64_t largest = random() % 3 == 0 ? 4 : 64; // many tiny pieces, or some larger
    for (qsizetype &n : pieces)
        n = qsizetype(1 + random() % largest);

    const QByteArrayView stream(reinterpret_cast<const char *>(data), qsizetype(size));
    const std::string violation = capwatch::fuzz::sseViolation(stream, maxEventBytes, pieces);
    if (!violation.empty()) {
        std::fprintf(stderr,
            "fuzz_sse: invariant broken: %s (max event bytes %lld, %zu piece sizes:",
            violation.c_str(), static_cast<long long>(maxEventBytes), pieces.size());
        for (const qsizetype n : pieces)
            std::fprintf(stderr, " %lld", static_cast<long long>(n));
        std::fprintf(stderr, ")\n");
        __builtin_trap();
    }
    return 0;
}
