// Compares aigent's o200k_base token counts with an independent
// implementation, the `tiktoken` npm package (OpenAI's tokenizer compiled to
// WebAssembly, with its own copy of the o200k_base ranks).
//
//   node scripts/compare-tokens.mjs REPORT.json
//       REPORT.json is `aigent --output json skill validate -r CORPUS`: each
//       skill's body is read again, split as aigent splits it, counted with
//       tiktoken and compared with the report's `tokens.body`. Prints the
//       match rate, the first mismatches, and both throughputs.
//
//   node scripts/compare-tokens.mjs --sample OUT.jsonl
//       Writes the sample the repository's test checks
//       (tests/fixtures/tokens/sample.jsonl): generated texts (no text taken
//       from anywhere) with tiktoken's counts.
//
// scripts/compare-tokens.sh installs tiktoken and runs this.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.TIKTOKEN_DIR ? process.env.TIKTOKEN_DIR + "/" : import.meta.url);
const { Tiktoken } = require("tiktoken/lite");
const o200k = require("tiktoken/encoders/o200k_base.json");
const encoder = new Tiktoken(o200k.bpe_ranks, o200k.special_tokens, o200k.pat_str);
// As aigent counts: special tokens are plain text.
const count = (text) => encoder.encode_ordinary(text).length;

/** The body as aigent's frontmatter::split finds it; null without one. */
function body(text) {
  if (text.startsWith("\ufeff")) text = text.slice(1);
  let offset = 0;
  let first = true;
  while (offset < text.length) {
    const end = text.indexOf("\n", offset);
    const next = end < 0 ? text.length : end + 1;
    let line = text.slice(offset, end < 0 ? text.length : end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    offset = next;
    if (first) {
      if (line !== "---") return null;
      first = false;
    } else if (line === "---") {
      return text.slice(offset);
    }
  }
  return null;
}

function compare(reportPath) {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  let compared = 0, matched = 0, bytes = 0, seconds = 0;
  const mismatches = [];
  for (const skill of report.data.skills) {
    if (!skill.tokens) continue;
    let text;
    try {
      text = readFileSync(skill.path, "utf8");
    } catch {
      continue;
    }
    const found = body(text);
    if (found === null) continue;
    const started = process.hrtime.bigint();
    const theirs = count(found);
    seconds += Number(process.hrtime.bigint() - started) / 1e9;
    bytes += Buffer.byteLength(found);
    compared += 1;
    if (theirs === skill.tokens.body) matched += 1;
    else mismatches.push(`${skill.path}: aigent ${skill.tokens.body}, tiktoken ${theirs}`);
  }
  console.log(`bodies compared: ${compared}, equal counts: ${matched} (${(100 * matched / Math.max(compared, 1)).toFixed(3)}%)`);
  console.log(`tiktoken (npm, WebAssembly, one thread): ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s = ${(bytes / 1e6 / seconds).toFixed(1)} MB/s`);
  for (const line of mismatches.slice(0, 20)) console.log(`mismatch: ${line}`);
  process.exitCode = mismatches.length === 0 ? 0 : 1;
}

/** Deterministic texts of many shapes, from a small PRNG and word lists. */
function sample(out) {
  let state = 0x2545f491;
  const random = (n) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
  const pick = (list) => list[random(list.length)];
  const words = ["the", "skill", "Use", "when", "a", "PDF", "form", "must", "be", "filled", "run", "tests",
    "don't", "it's", "we'll", "you're", "HTTP", "JSONSchema", "camelCase", "snake_case", "kebab-case",
    "naïve", "café", "Straße", "über", "déjà", "año", "Ωmega", "Привет", "мир", "数据", "工具", "日本語",
    "テキスト", "한국어", "العربية", "हिन्दी", "🙂", "👨‍👩‍👧", "ñ", "x²", "½", "\u00a0", "\u200b"];
  const symbols = ["", ".", ",", ":", ";", "!", "?", "(", ")", "[", "]", "{", "}", "`", "```", "**", "_",
    "#", "##", "-", "--", "->", "=>", "==", "!=", "<", ">", "/", "\\", "|", "&&", "'", "\"", "$", "%"];
  const spaces = [" ", " ", " ", "  ", "\n", "\n\n", "\t", "\r\n", "    ", " \n", "\n   "];
  const lines = [];
  for (let i = 0; i < 400; i++) {
    const length = 1 + random(i < 200 ? 12 : 120);
    let text = "";
    for (let j = 0; j < length; j++) {
      const r = random(10);
      if (r < 6) text += pick(words);
      else if (r < 7) text += String(random(100000)) + (random(2) ? "." + String(random(1000)) : "");
      else text += pick(symbols);
      text += pick(spaces);
    }
    if (random(4) === 0) text = text.trimEnd();
    lines.push(JSON.stringify({ text, tokens: count(text) }));
  }
  writeFileSync(out, lines.join("\n") + "\n");
  console.log(`${lines.length} samples written to ${out}`);
}

if (process.argv[2] === "--sample") sample(process.argv[3]);
else compare(process.argv[2]);
