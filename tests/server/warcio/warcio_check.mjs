// warcio.js on pith warc's behalf (tests/server/warc_test.py):
//   node warcio_check.mjs write OUT.warc.gz URL=FILE...   response records, gzipped one by one
//   node warcio_check.mjs read IN.warc                     one JSON line per record; exit 1 on a parse error
import fs from "node:fs";
import { WARCParser, WARCRecord, WARCSerializer } from "warcio";

async function write(out, pairs) {
  const parts = [];
  const info = WARCRecord.createWARCInfo({ filename: out, warcVersion: "WARC/1.1" }, { software: "warcio.js" });
  parts.push(await WARCSerializer.serialize(info, { gzip: true }));
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const url = pair.slice(0, at);
    const body = fs.readFileSync(pair.slice(at + 1));
    const record = WARCRecord.create(
      {
        url,
        type: "response",
        warcVersion: "WARC/1.1",
        statusline: "HTTP/1.1 200 OK",
        httpHeaders: { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(body.length) },
      },
      (async function* () { yield body; })(),
    );
    parts.push(await WARCSerializer.serialize(record, { gzip: true }));
  }
  fs.writeFileSync(out, Buffer.concat(parts.map((p) => Buffer.from(p))));
}

async function read(file) {
  const parser = new WARCParser(fs.createReadStream(file));
  for await (const record of parser) {
    const payload = await record.readFully(false);
    console.log(JSON.stringify({
      type: record.warcType,
      id: record.warcHeader("WARC-Record-ID"),
      refers_to: record.warcHeader("WARC-Refers-To") || null,
      target_uri: record.warcTargetURI || null,
      content_type: record.warcContentType || null,
      length: payload.length,
    }));
  }
}

const [mode, file, ...rest] = process.argv.slice(2);
try {
  await (mode === "write" ? write(file, rest) : read(file));
} catch (e) {
  console.error(`warcio: ${e.stack || e}`);
  process.exit(1);
}
