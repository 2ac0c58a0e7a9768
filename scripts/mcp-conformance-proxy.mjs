// A reverse proxy for scripts/mcp-conformance.sh: adds `Authorization:
// Bearer TOKEN` to every request (the conformance client sends none) and
// passes everything else on as it came, the Host header included, streaming
// both ways (SSE answers too).
//
//   node scripts/mcp-conformance-proxy.mjs TARGET_PORT TOKEN_FILE
//
// It listens on a free loopback port and prints `proxy listening on PORT`.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [, , targetPort, tokenFile] = process.argv;
const token = readFileSync(tokenFile, 'utf8').trim();
const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const upstream = http.request(
      { host: '127.0.0.1', port: Number(targetPort), method: req.method, path: req.url, headers },
      (reply) => {
        res.writeHead(reply.statusCode, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(upstream);
});
proxy.listen(0, '127.0.0.1', () => console.log(`proxy listening on ${proxy.address().port}`));
