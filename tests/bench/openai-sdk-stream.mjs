// Streaming-benchmark client: the official `openai` npm package (version 6) consuming one streamed
// chat completion, as a typical Node application would.
//
//   node openai-sdk-stream.mjs BASE_URL [MODEL] [PROMPT]
//
// BASE_URL is the OpenAI-compatible base (http://127.0.0.1:P/v1). Prints the total length of
// choices[0].delta.content over all chunks (UTF-16 code units; equal to bytes for an ASCII answer)
// on stdout. Only the length is kept, not the text, so what is measured is the SDK's own cost.
// `openai` is resolved from the folder this file runs in: stream-bench.sh copies it next to the
// node_modules it installs.
import OpenAI from 'openai';

const [baseURL, model = 'capwatch-demo', prompt = 'bench'] = process.argv.slice(2);
if (!baseURL) {
  console.error('usage: node openai-sdk-stream.mjs BASE_URL [MODEL] [PROMPT]');
  process.exit(2);
}

const client = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0 });
const stream = await client.chat.completions.create({
  model,
  messages: [{ role: 'user', content: prompt }],
  stream: true,
});

let chars = 0;
for await (const chunk of stream) {
  chars += chunk.choices[0]?.delta?.content?.length ?? 0;
}
console.log(chars);
