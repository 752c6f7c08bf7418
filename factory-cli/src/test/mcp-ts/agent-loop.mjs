// An agent's loop against `factory mcp`, through the official MCP TypeScript SDK client over stdio:
// open a session, write a file, edit it, run a test command (with streamed progress), diff, retire.
// Usage: node agent-loop.mjs JAVA JAR STATE_DIR REPO
// Prints one JSON document of what it saw on stdout; exits 1 with a message on stderr when a step fails.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const [java, jar, stateDir, repo] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: java,
  args: ["-jar", jar, "--state-dir", stateDir, "mcp"],
  env: process.env,
  stderr: "inherit",
});
const client = new Client({ name: "agent-loop", version: "1.0.0" });
const seen = { tools: [], progress: [] };

async function call(name, args, onprogress) {
  const result = await client.callTool({ name, arguments: args }, CallToolResultSchema,
    { timeout: 300000, resetTimeoutOnProgress: true, onprogress });
  const text = result.content.filter((c) => c.type === "text").map((c) => c.text).join("");
  if (result.isError) {
    throw new Error(`${name} failed: ${text}`);
  }
  return result.structuredContent;
}

try {
  await client.connect(transport);
  seen.tools = (await client.listTools()).tools.map((t) => t.name).sort();

  seen.open = await call("session_open", { id: "ts-agent", repo, branch: "ts/feature" });
  await call("file_write", { id: "ts-agent", path: "calc.sh", content: "add() { echo $(($1 - $2)); }\n" });
  seen.edit = await call("file_edit", { id: "ts-agent", path: "calc.sh", old_string: "$1 - $2", new_string: "$1 + $2" });
  await call("file_edit", { id: "ts-agent", path: "README.md", old_string: "hello from", new_string: "hello, agent, from" });
  await call("file_write", { id: "ts-agent", path: "test.sh",
    content: ". ./calc.sh\n[ \"$(add 2 3)\" = 5 ] && echo 'test passed' || { echo 'test failed' >&2; exit 1; }\n" });
  // The SDK runs notification handlers a microtask after it read them, but settles a response read
  // in the same chunk at once (and forgets its progress handler): a fast command's output would be
  // dropped. So the command holds its result until this client has seen its output (a flag file;
  // at most 60 s, then it fails). The flag is in the checkout: an isolated session sees only its own directory.
  const seenOutput = join(seen.open.checkout, ".progress-seen");
  seen.exec = await call("session_exec", { id: "ts-agent", command: "sh test.sh && i=0 && while [ ! -f .progress-seen ]; do [ $i -lt 1200 ] || exit 3; i=$((i + 1)); sleep 0.05; done" },
    (p) => { seen.progress.push({ progress: p.progress, message: p.message }); writeFileSync(seenOutput, ""); });
  assert.equal(seen.exec.exitCode, 0, `the test command failed: ${JSON.stringify(seen.exec)}`);
  seen.diff = await call("session_diff", { id: "ts-agent" });
  seen.failedEdit = await client.callTool({ name: "file_edit",
    arguments: { id: "ts-agent", path: "calc.sh", old_string: "no such text", new_string: "x" } });
  seen.retire = await call("session_retire", { id: "ts-agent", delete: true });
  process.stdout.write(JSON.stringify(seen) + "\n");
  await client.close();
} catch (e) {
  process.stderr.write(`agent-loop: ${e.stack || e}\n`);
  await client.close().catch(() => {});
  process.exit(1);
}
