import { BlockList, isIP } from "node:net";

/** Address ranges web_fetch refuses unless `tools.web.fetch.allowPrivateNetwork` is true. */
const RANGES: ReadonlyArray<{ label: string; v4?: Array<[string, number]>; v6?: Array<[string, number]> }> = [
  { label: "loopback", v4: [["127.0.0.0", 8]], v6: [["::1", 128]] },
  { label: "unspecified", v4: [["0.0.0.0", 8]], v6: [["::", 128]] },
  {
    label: "private",
    v4: [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
    ],
  },
  { label: "carrier-grade NAT", v4: [["100.64.0.0", 10]] },
  { label: "link-local", v4: [["169.254.0.0", 16]], v6: [["fe80::", 10]] },
  { label: "unique-local", v6: [["fc00::", 7]] },
  { label: "site-local", v6: [["fec0::", 10]] },
  { label: "multicast", v4: [["224.0.0.0", 4]], v6: [["ff00::", 8]] },
  {
    label: "reserved",
    v4: [
      ["192.0.0.0", 24],
      ["192.0.2.0", 24],
      ["198.18.0.0", 15],
      ["198.51.100.0", 24],
      ["203.0.113.0", 24],
      ["240.0.0.0", 4],
    ],
    v6: [
      ["::", 96],
      ["100::", 64],
      ["2001:db8::", 32],
    ],
  },
];

const LISTS = RANGES.map((r) => {
  const list = new BlockList();
  for (const [net, prefix] of r.v4 ?? []) list.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of r.v6 ?? []) list.addSubnet(net, prefix, "ipv6");
  return { label: r.label, list };
});

/** Expands an IPv6 address to eight 16-bit groups (handles `::` and a dotted IPv4 tail). */
function ipv6Groups(address: string): number[] | undefined {
  let addr = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (dotted) {
    const p = dotted[1]!.split(".").map(Number);
    addr = addr.slice(0, -dotted[1]!.length) + `${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const [left, right] = addr.split("::") as [string, string | undefined];
  const head = left === "" ? [] : left.split(":");
  const tail = right === undefined || right === "" ? [] : right.split(":");
  const fill = right === undefined ? 0 : 8 - head.length - tail.length;
  const groups = [...head, ...Array<string>(Math.max(0, fill)).fill("0"), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** The IPv4 address carried inside an IPv6 one (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4FromGroups(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4FromGroups(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4FromGroups(g[1]!, g[2]!);
  return undefined;
}

/**
 * Why an IP address is not a public internet address (`"loopback"`, `"private"`, `"link-local"`,
 * `"unique-local"`, ...), or undefined when it is public. IPv4 addresses embedded in IPv6
 * (mapped, NAT64, 6to4) are judged by their IPv4 part. Non-IP input counts as `"invalid"`.
 */
export function classifyAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare.split("%")[0]!);
  if (family === 0) return "invalid";
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== undefined) return classifyAddress(v4);
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  const ip = bare.split("%")[0]!;
  for (const { label, list } of LISTS) if (list.check(ip, type)) return label;
  return undefined;
}

/** A fetch target (or redirect target) that resolves to a non-public address. */
export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: string,
  ) {
    super(
      `${host === address ? address : `${host} resolves to ${address}, which`} is a ${kind} address; web_fetch only reaches public addresses. ` +
        "Set tools.web.fetch.allowPrivateNetwork: true in the config to allow private-network targets.",
    );
    this.name = "PrivateAddressError";
  }
}
