#!/usr/bin/env python3
"""Makes capwatch's price table, resources/prices.json, from pydantic's genai-prices data.

  python3 tools/make-prices.py --commit SHA --source-date YYYY-MM-DD --taken YYYY-MM-DD \\
      path/to/genai-prices/prices/data.json > resources/prices.json

The input is `prices/data.json` of https://github.com/pydantic/genai-prices (MIT licence): a list
of providers, each with models, each model with match rules (equals / starts_with / contains /
ends_with / regex, combined with or / and) and prices per million tokens. Standard library only;
the output depends on nothing but the input and the arguments, so running it twice gives the same
bytes.

What is kept (the rule, in order):
  * Models priced per token for both input and output (`input_mtok` and `output_mtok`): chat
    models. Embeddings, image and free models (no input or no output price) are left out.
  * Which price: where a model's price changed on a date, the one in force on --taken; where it
    depends on the time of day (DeepSeek's off-peak discount), the one in force for most of the
    day; where it rises with the prompt's length (tiers), the base price, below the first tier.
  * Cached input: `cache_read_mtok` when given. Cache writes, audio and per-request fees are not
    kept: a cost from this table is an estimate.
  * Every price is rounded to 6 significant digits, in decimal (no binary leftovers: 0.15, never
    0.15000000000000002).
  * Names: the model's id and the literal names of its match rules (equals, starts_with,
    contains, ends_with; regexes and the parts of an `and` are not names), lower case, made of
    a-z 0-9 and . _ - : / @ +. A name of a provider's model is also given with the provider's id
    in front ("azure/gpt-4o-mini", "openrouter/openai/gpt-4o-mini").
  * Providers in this order: the makers (openai, anthropic, google, mistral, deepseek, x-ai,
    cohere, moonshotai, zhipuai, minimax, perplexity), then the clouds and hosts (azure, aws,
    groq, together, fireworks, cerebras, novita, ovhcloud, avian, doubleword, openrouter), then
    any other in alphabetical order. A name belongs to the first model that claims it.
  * Folding: a model whose prices equal those of a model already kept under one of its names (or
    under the last part of a "vendor/model" name) is folded onto it as aliases; equal means the
    same input and output prices and the same cached-input price, or none given by the newcomer.
    A model with other prices is kept as an entry of its own, its id the model's id if that is
    free, else "provider/id". A name without a "vendor/" part that capwatch's lookup
    (src/retry/pricetable.h: the name, then without a date suffix, ...) already resolves to
    another provider's model of other prices is only taken with the provider in front: a cloud's
    dated name never changes what the maker's own dated name costs.
  * Output: the entries sorted by id, their aliases sorted, one entry a line.

Usage:
  make-prices.py [--commit SHA] [--source-date DATE] [--taken DATE] [-o OUT] DATA_JSON
"""

import argparse
import decimal
import json
import re
import sys

SOURCE = "pydantic genai-prices prices/data.json"
SOURCE_URL = "https://github.com/pydantic/genai-prices"
LICENSE = "MIT"

MAKERS = ["openai", "anthropic", "google", "mistral", "deepseek", "x-ai", "cohere", "moonshotai",
          "zhipuai", "minimax", "perplexity"]
HOSTS = ["azure", "aws", "groq", "together", "fireworks", "cerebras", "novita", "ovhcloud", "avian",
         "doubleword", "openrouter"]

NAME = re.compile(r"^[a-z0-9][a-z0-9._:/@+-]*$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SIGNIFICANT = 6


def fail(message):
    sys.stderr.write("make-prices: %s\n" % message)
    sys.exit(1)


def rounded(value, where):
    """A price as a float that prints as its decimal rounded to SIGNIFICANT digits."""
    if isinstance(value, bool) or not isinstance(value, (int, decimal.Decimal)):
        fail("%s: a price is not a number: %r" % (where, value))
    d = decimal.Decimal(value)
    if not d.is_finite() or d < 0:
        fail("%s: a price is negative or not finite: %s" % (where, d))
    with decimal.localcontext() as context:
        context.prec = SIGNIFICANT
        context.rounding = decimal.ROUND_HALF_EVEN
        d = +d
    # float(str) of at most 17 significant digits prints back as the same digits (repr is the
    # shortest round trip).
    return float(d)


def base_price(value, where):
    """A price field: a number, or {"base": n, "tiers": [...]} whose base is taken."""
    if isinstance(value, dict):
        if "base" not in value:
            fail("%s: a tiered price without a base" % where)
        return rounded(value["base"], where)
    return rounded(value, where)


def seconds_of(clock, where):
    m = re.match(r"^(\d{2}):(\d{2})(?::(\d{2}))?Z?$", clock)
    if not m:
        fail("%s: not a time of day: %r" % (where, clock))
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3) or 0)


def chosen_prices(prices, taken, where):
    """The prices of one model as in force on `taken` (see the module's docstring)."""
    if isinstance(prices, dict):
        return prices
    if not isinstance(prices, list) or not prices:
        fail("%s: prices are neither an object nor a list" % where)
    default = None
    dated = []
    timed = []
    for item in prices:
        constraint = item.get("constraint") or {}
        if not constraint:
            default = item["prices"]
        elif "start_date" in constraint and set(constraint) == {"start_date"}:
            if constraint["start_date"] <= taken:
                dated.append((constraint["start_date"], item["prices"]))
        elif set(constraint) == {"start_time", "end_time"}:
            start = seconds_of(constraint["start_time"], where)
            end = seconds_of(constraint["end_time"], where)
            timed.append(((end - start) % 86400, item["prices"]))
        else:
            fail("%s: a price constraint this script does not know: %r" % (where, constraint))
    if dated:
        return max(dated, key=lambda x: x[0])[1]
    if timed:
        rest = 86400 - sum(t for t, _ in timed)
        longest = max(timed, key=lambda x: x[0])
        if default is None or longest[0] > rest:
            return longest[1]
    if default is None:
        fail("%s: no price applies on %s" % (where, taken))
    return default


def literal_names(match):
    """The literal names of a match rule: equals, starts_with, contains and ends_with values,
    also under `or`; never regexes nor the parts of an `and`."""
    names = []
    for key, value in match.items():
        if key == "or":
            for clause in value:
                names += literal_names(clause)
        elif key in ("equals", "starts_with", "contains", "ends_with") and isinstance(value, str):
            names.append(value)
    return names


def without_date(name):
    """`name` without a date suffix as capwatch's lookup removes it, or `name` itself:
    -YYYY-MM-DD, -YYYYMMDD, @YYYYMMDD or -MMDD at the end, month 01-12, day 01-31."""
    for pattern in (r"-\d{4}-(\d{2})-(\d{2})$", r"[-@]\d{4}(\d{2})(\d{2})$", r"-(\d{2})(\d{2})$"):
        m = re.search(pattern, name)
        if m and m.start() > 0 and 1 <= int(m.group(1)) <= 12 and 1 <= int(m.group(2)) <= 31:
            return name[:m.start()]
    return name


def resolve(owner, name):
    """The id capwatch's lookup finds for `name` among the names claimed so far, or None."""
    while name:
        for candidate in (name, without_date(name)):
            if candidate in owner:
                return owner[candidate]
        if "/" not in name:
            return None
        name = name.split("/", 1)[1]
    return None


def provider_order(providers):
    ids = [p["id"] for p in providers]
    known = [i for i in MAKERS + HOSTS if i in ids]
    return known + sorted(i for i in ids if i not in known)


def same_price(kept, new):
    if kept["input_per_mtok"] != new["input_per_mtok"]:
        return False
    if kept["output_per_mtok"] != new["output_per_mtok"]:
        return False
    cached = new.get("cached_input_per_mtok")
    return cached is None or cached == kept.get("cached_input_per_mtok")


def make_table(providers, taken):
    by_id = {p["id"]: p for p in providers}
    entries = {}  # id -> entry
    owner = {}  # name -> id of the entry that has it

    def claim(entry, name):
        if name not in owner:
            owner[name] = entry["id"]
            if name != entry["id"]:
                entry["aliases"].add(name)

    for pid in provider_order(providers):
        for model in by_id[pid]["models"]:
            where = "%s/%s" % (pid, model.get("id"))
            prices = chosen_prices(model["prices"], taken, where)
            if "input_mtok" not in prices or "output_mtok" not in prices:
                continue
            price = {
                "input_per_mtok": base_price(prices["input_mtok"], where),
                "output_per_mtok": base_price(prices["output_mtok"], where),
            }
            if "cache_read_mtok" in prices:
                price["cached_input_per_mtok"] = base_price(prices["cache_read_mtok"], where)

            names = []
            for n in [model["id"]] + literal_names(model["match"]):
                n = n.lower()
                if NAME.match(n) and n[-1] not in "-_./:@" and n not in names:
                    names.append(n)
            if not names:
                continue
            prefixed = [n if n.startswith(pid + "/") else pid + "/" + n for n in names]
            bases = [n.rsplit("/", 1)[1] for n in names if "/" in n]

            target = None
            for n in names + prefixed + bases:
                kept = entries.get(resolve(owner, n))
                if kept is not None and same_price(kept, price):
                    target = kept
                    break

            def free(n):
                """Whether `n` may be a name of this model: unclaimed, and when it has no
                "vendor/" part, not resolved by the lookup to another provider's model of other
                prices."""
                if n in owner:
                    return False
                if "/" in n:
                    return True
                found = entries.get(resolve(owner, n))
                return (found is None or found is target or found["provider"] == pid
                        or same_price(found, price))

            if target is None:
                new_id = names[0] if free(names[0]) else prefixed[0]
                if new_id in owner:
                    continue  # the same model twice under one provider: the first one counts
                target = dict(price, id=new_id, aliases=set(), provider=pid)
                entries[new_id] = target
                owner[new_id] = new_id
            for n in names + prefixed:
                if free(n):
                    claim(target, n)
    return entries


def entry_json(entry):
    out = {"id": entry["id"], "aliases": sorted(entry["aliases"])}
    for key in ("input_per_mtok", "output_per_mtok", "cached_input_per_mtok"):
        if key in entry:
            out[key] = entry[key]
    return json.dumps(out, ensure_ascii=True, separators=(", ", ": "))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="genai-prices prices/data.json")
    parser.add_argument("--commit", default="", help="the genai-prices commit it was taken from")
    parser.add_argument("--source-date", default="", help="that commit's date, YYYY-MM-DD")
    parser.add_argument("--taken", required=True,
                        help="the day the table is made, YYYY-MM-DD: the prices in force then")
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    args = parser.parse_args()
    for value in (args.taken, args.source_date):
        if value and not DATE.match(value):
            fail("not a date (YYYY-MM-DD): %r" % value)

    try:
        with open(args.data, encoding="utf-8") as f:
            providers = json.load(f, parse_float=decimal.Decimal)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (args.data, e))
    if not isinstance(providers, list):
        fail("%s: not genai-prices data (a list of providers)" % args.data)

    entries = make_table(providers, args.taken)
    header = [
        ("version", 1),
        ("currency", "USD"),
        ("source", SOURCE),
        ("source_url", SOURCE_URL),
        ("source_commit", args.commit),
        ("source_date", args.source_date),
        ("taken", args.taken),
        ("license", LICENSE),
        ("note", "Estimates: base prices per million tokens, made by tools/make-prices.py"),
    ]
    lines = ["{"]
    for key, value in header:
        lines.append("  %s: %s," % (json.dumps(key), json.dumps(value)))
    lines.append('  "models": [')
    body = [entry_json(entries[i]) for i in sorted(entries)]
    lines += ["    " + line + ("," if n + 1 < len(body) else "") for n, line in enumerate(body)]
    lines += ["  ]", "}"]
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
