// A tiny protobuf reader for tests: lists the op types and opset domains of an emitted model, so
// tests can check what we wrote without trusting our own writer.

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[pos++]!;
    result |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [result, pos];
    shift += 7n;
  }
}

/** Fields of one message as [fieldNumber, wireType, value] with nested bytes left raw. */
function fields(buf: Uint8Array): [number, number, bigint | Uint8Array][] {
  const out: [number, number, bigint | Uint8Array][] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, p1] = readVarint(buf, pos);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    pos = p1;
    if (wire === 0) {
      const [v, p2] = readVarint(buf, pos);
      out.push([field, wire, v]);
      pos = p2;
    } else if (wire === 2) {
      const [len, p2] = readVarint(buf, pos);
      out.push([field, wire, buf.subarray(p2, p2 + Number(len))]);
      pos = p2 + Number(len);
    } else if (wire === 5) {
      out.push([field, wire, buf.subarray(pos, pos + 4)]);
      pos += 4;
    } else if (wire === 1) {
      out.push([field, wire, buf.subarray(pos, pos + 8)]);
      pos += 8;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

export function decodeModelSummary(bytes: Uint8Array): { opTypes: string[]; opsetDomains: string[]; nodeDomains: string[] } {
  const top = fields(bytes);
  const graph = top.find(([f]) => f === 7)![2] as Uint8Array;
  const nodes = fields(graph)
    .filter(([f]) => f === 1)
    .map(([, , v]) => fields(v as Uint8Array));
  const opTypes = nodes.map((n) => text(n.find(([f]) => f === 4)![2] as Uint8Array));
  const nodeDomains = nodes.map((n) => {
    const d = n.find(([f]) => f === 7);
    return d ? text(d[2] as Uint8Array) : '';
  });
  const opsetDomains = top
    .filter(([f]) => f === 8)
    .map(([, , v]) => {
      const d = fields(v as Uint8Array).find(([f]) => f === 1);
      return d ? text(d[2] as Uint8Array) : '';
    });
  return { opTypes, opsetDomains, nodeDomains };
}
