#pragma once

// Every word, phrase, unit and name the retry policy looks for (sections 2, 3 and 6 of
// docs/retry-policy.md), as data. The scanners (textscan.cpp, waitscan.cpp, figurescan.cpp) and
// classifier.cpp read these tables and hold no phrase of their own. Texts are matched after
// lowerCase() (ASCII and Cyrillic), so every entry here is lower case. Non-ASCII entries are
// UTF-8.

#include <array>
#include <string_view>

namespace capwatch::retry::phrases {

using namespace std::string_view_literals;

/// Whether a word must stand alone (not inside a longer word) where it is looked for. Chinese has
/// no spaces between words, so its entries are found anywhere.
enum class Boundary
{
    Word,
    None
};

struct Word
{
    std::string_view text;
    Boundary boundary = Boundary::Word;
};

// --- Section 2 and 6.1: token-limit detection -------------------------------------------------

/// Step 6: any one suffices (substrings of the lower-cased text). The order is the order the
/// reason lists them in.
inline constexpr std::array kTokenLimitKeywords {
    "limit"sv, "token"sv, "exceeded"sv, // English (revision 1 order)
    "превыш"sv, "лимит"sv, "токен"sv, // Russian
    "超过"sv, "超出"sv, "限制"sv, "限额"sv, "上限"sv, "令牌"sv, // Chinese
};

/// The words a `used` figure directly follows.
inline constexpr std::array kUsedWords {
    Word { "used" },
    Word { "current" },
    Word { "actual" },
    Word { "использовано" },
    Word { "израсходовано" },
    Word { "已使用", Boundary::None },
    Word { "已用", Boundary::None },
};

/// The words a `limit` figure directly follows. The English one may add ` of` or ` is`.
inline constexpr std::array kLimitWords {
    Word { "limit" },
    Word { "лимит" },
    Word { "限额", Boundary::None },
    Word { "上限", Boundary::None },
    Word { "限制", Boundary::None },
};
inline constexpr std::array kLimitWordTails { " of"sv, " is"sv };

/// What may stand between a used/limit word and its number: spaces, `:`, `=`, full-width colon.
inline constexpr std::array kFigureSeparators { " "sv, ":"sv, "="sv, "："sv };

/// `(actual/limit): 65605/16000`: N/M right after these words gives used N and limit M.
inline constexpr std::array kSlashWords { "actual/limit"sv, "used/limit"sv };
/// What may stand between the slash words and N (the closing parenthesis of the example, then
/// the usual separators).
inline constexpr std::array kSlashSeparators { ")"sv, " "sv, ":"sv, "="sv, "："sv };

/// 6.5: a rate limit shows used/limit only when its text speaks of tokens.
inline constexpr std::array kTokenWords { "token"sv, "tpm"sv, "tpd"sv, "токен"sv, "令牌"sv };

// --- Section 3 and 6.1: wait phrases ----------------------------------------------------------

struct Unit
{
    std::string_view word;
    double seconds;
};

/// Patterns 1 and 2: lead words, then `X unit`.
inline constexpr std::array kRetryInUnits { Unit { "minute", 60 } };
inline constexpr std::array kRetryAfterUnits { Unit { "second", 1 } };
inline constexpr std::string_view kRetryWord = "retry";
inline constexpr std::string_view kRetryInWord = "in";
inline constexpr std::string_view kRetryAfterWord = "after";

/// Patterns 3 to 7, `X unit` with an optional plural `s`; the pattern number is the index + 3.
inline constexpr std::array kMinuteUnits { Unit { "minute", 60 } };
inline constexpr std::array kSecondUnits { Unit { "second", 1 } };
inline constexpr std::array kMinUnits { Unit { "min", 60 } };
inline constexpr std::array kSecUnits { Unit { "sec", 1 } };
inline constexpr std::array kHourUnits { Unit { "hour", 3600 }, Unit { "hr", 3600 } };

/// Pattern 8 and the compact durations of `retryDelay` and the reset headers: `1m30s`, `644ms`.
/// Longer units first (`ms` before `m`).
inline constexpr std::array kCompactUnits { Unit { "ms", 0.001 }, Unit { "h", 3600 },
    Unit { "m", 60 }, Unit { "s", 1 } };
inline constexpr std::array kCompactLeadWords { "in"sv, "after"sv };

/// Pattern 9: Russian units, the unit not followed by a Cyrillic letter. `через` before X is
/// allowed and changes nothing, so it needs no entry.
inline constexpr std::array kRussianUnits {
    Unit { "мс", 0.001 },
    Unit { "сек", 1 },
    Unit { "секунду", 1 },
    Unit { "секунды", 1 },
    Unit { "секунд", 1 },
    Unit { "мин", 60 },
    Unit { "минуту", 60 },
    Unit { "минуты", 60 },
    Unit { "минут", 60 },
    Unit { "ч", 3600 },
    Unit { "час", 3600 },
    Unit { "часа", 3600 },
    Unit { "часов", 3600 },
};

/// Pattern 10: Chinese units (longer first: `秒钟` before `秒`).
inline constexpr std::array kChineseUnits {
    Unit { "毫秒", 0.001 },
    Unit { "秒钟", 1 },
    Unit { "秒", 1 },
    Unit { "分钟", 60 },
    Unit { "小时", 3600 },
};

/// Pattern 11: these words, then an RFC 3339 date-time with `Z` or an offset.
inline constexpr std::array kResetAtWords { "reset at"sv, "resets at"sv, "retry at"sv,
    "try again at"sv, "available at"sv };

// --- 6.2: error codes -------------------------------------------------------------------------
// (The JSON member names are in errortexts.cpp: they are structure, not wording.)

// --- 6.3: too_large ---------------------------------------------------------------------------

inline constexpr std::array kTooLargeCodes { "context_length_exceeded"sv,
    "exceed_context_size_error"sv, "request_too_large"sv };

inline constexpr std::array kTooLargePhrases {
    "maximum context length"sv,
    "context length exceeded"sv,
    "context_length_exceeded"sv,
    "exceeds the available context size"sv,
    "context window"sv,
    "prompt is too long"sv,
    "request too large"sv,
    "input token count"sv,
    "input token limit"sv,
    "exceeds the maximum number of tokens"sv,
    "reduce the length of the messages"sv,
    "超长"sv,
    "超过最大长度"sv,
    "上下文长度"sv,
    "превышен максимальный размер"sv,
};

/// Rule 4: the request's size follows one of these words (spaces, `:`, `=`, `~` between)...
inline constexpr std::array kRequestedWords { "requested"sv, "given"sv };
inline constexpr std::array kRequestedSeparators { " "sv, ":"sv, "="sv, "~"sv };
/// ...and the window's size a limit word (kLimitWords) or this.
inline constexpr std::string_view kMustBeAtMost = "must be <=";

/// Numbers below this are not taken as token counts when too_large fills in its figures.
inline constexpr double kTooLargeMinFigure = 100;

/// Section 8.2: a too_large text that says one of these speaks of the model's context, and its
/// limit is the context window (a request over a rate window or a body too large says none).
inline constexpr std::array kContextPhrases {
    "context"sv, // maximum context length, context window, context size, context_length_exceeded
    "prompt is too long"sv,
    "input token count"sv,
    "input token limit"sv,
    "exceeds the maximum number of tokens"sv,
    "max_new_tokens"sv,
    "上下文"sv,
    "контекст"sv,
};
/// ...unless it also speaks of a rate window: then its limit is the window's, not the model's.
inline constexpr std::array kRateWindowPhrases { "per min"sv, "per day"sv, "per hour"sv, "tpm"sv,
    "tpd"sv, "rpm"sv, "rate limit"sv };

// --- 6.4: billing -----------------------------------------------------------------------------

inline constexpr std::array kBillingCodes { "insufficient_balance"sv,
    "billing_hard_limit_reached"sv, "1113"sv };

inline constexpr std::array kBillingPhrases {
    "insufficient balance"sv,
    "insufficient credits"sv,
    "requires more credits"sv,
    "can only afford"sv,
    "purchase more credits"sv,
    "spending limit"sv,
    "budget has been exceeded"sv,
    "余额不足"sv,
    "欠费"sv,
    "额度不足"sv,
    "недостаточно средств"sv,
};

// --- 6.5: wait headers ------------------------------------------------------------------------

inline constexpr std::string_view kRetryAfterHeader = "retry-after";
inline constexpr std::string_view kRetryAfterMsHeader = "retry-after-ms";
/// The largest valid value of these wins (source `ratelimit-reset`).
inline constexpr std::array kRateLimitResetHeaders {
    "x-ratelimit-reset-tokens"sv,
    "x-ratelimit-reset-requests"sv,
    "x-rate-limit-reset-tokens"sv,
    "x-rate-limit-reset-requests"sv,
};

// --- 6.6: errors inside a 2xx -----------------------------------------------------------------

/// With no status in the body, an error whose text says this is a 500, otherwise a 400.
inline constexpr std::string_view kOverloadedWord = "overloaded";
inline constexpr int kEmbeddedOverloadedStatus = 500;
inline constexpr int kEmbeddedDefaultStatus = 400;
inline constexpr std::string_view kEventStreamType = "text/event-stream";
inline constexpr std::string_view kContentTypeHeader = "content-type";

} // namespace capwatch::retry::phrases
