import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { AppError } from '../../domain/errors.ts'

/**
 * SSRF protection of webhook targets: addresses a server must never be made to call on a user's
 * behalf — private networks, loopback, link-local (cloud metadata at 169.254.169.254 and
 * fd00:ec2::254), carrier-grade NAT, multicast, reserved and unspecified ranges, and IPv4 written
 * as IPv6. Checked when an endpoint is saved and again for every connection (DNS may have changed):
 * the address that was checked is the one connected to (`pinnedLookup`).
 */
const blocked = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4')
}
/**
 * IPv6 ranges refused whole. Besides the private and special ones, the transition mechanisms that
 * carry an IPv4 address inside: IPv4-compatible (::/96, deprecated), 6to4 (2002::/16), Teredo
 * (2001::/32) and local-use NAT64 (64:ff9b:1::/48). Their traffic goes through a relay or gateway
 * that may reach the IPv4 address inside, private ones included; no webhook receiver needs them,
 * and refusing the whole range cannot be fooled by an encoding (Teredo hides its client address
 * bit-flipped).
 */
for (const [network, prefix] of [
  ['::', 96], // also the unspecified address and loopback (::1)
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6')
}

/**
 * IPv4-mapped (::ffff:0:0/96) and well-known NAT64 (64:ff9b::/96, what DNS64 answers on an
 * IPv6-only network) addresses reach the IPv4 address in their last 32 bits: they are judged as
 * that address, so a public one works and a private one is refused.
 */
const embeddingPrefixes = [
  [0, 0, 0, 0, 0, 0xffff],
  [0x64, 0xff9b, 0, 0, 0, 0],
]

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 becomes the last two). */
export function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null
  let text = address.split('%')[0]!.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [])
  const left = parse(head)
  const right = parse(tail ?? '')
  const missing = 8 - left.length - right.length
  return tail === undefined ? left : [...left, ...Array<number>(missing).fill(0), ...right]
}

/** The IPv4 address that an IPv4-mapped or NAT64 address stands for; null for any other. */
export function embeddedIPv4(address: string): string | null {
  const groups = ipv6Groups(address)
  if (!groups) return null
  const embeds = embeddingPrefixes.some((prefix) => prefix.every((group, i) => groups[i] === group))
  if (!embeds) return null
  const [high, low] = [groups[6]!, groups[7]!]
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/** Is this address one that webhooks must not reach? (Anything that is not an IP address is.) */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 4) return blocked.check(address, 'ipv4')
  const inner = embeddedIPv4(address)
  if (inner) return blocked.check(inner, 'ipv4')
  return blocked.check(address.split('%')[0]!, 'ipv6')
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  )
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/**
 * Save time: the URL's host must resolve, and only to public addresses (unless `allowPrivate`).
 * Refuses with a validation error on the `url` field.
 */
export async function assertPublicTarget(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return
  const host = hostOf(new URL(url))
  let addresses: LookupAddress[]
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host)
  } catch {
    throw new AppError('validation', 'webhooks.urlUnresolvable', {
      fields: { url: 'webhooks.urlUnresolvable' },
    })
  }
  if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
    throw new AppError('validation', 'webhooks.urlPrivate', { fields: { url: 'webhooks.urlPrivate' } })
  }
}

export class BlockedAddressError extends Error {
  constructor(hostname: string) {
    super(`refused: ${hostname} resolves to a private, loopback or link-local address`)
    this.name = 'BlockedAddressError'
  }
}

/**
 * Delivery time: the `lookup` of the HTTP request. It resolves the host once and fails the
 * connection when any answer is a blocked address; the socket connects to the addresses it
 * returned, so a second, different DNS answer cannot slip in between check and connect.
 */
export const pinnedLookup: LookupFunction = (hostname, options, callback) => {
  resolveAll(hostname).then(
    (addresses) => {
      const wanted = options.family === 4 || options.family === 6 ? options.family : undefined
      const usable = addresses.filter((a) => !wanted || a.family === wanted)
      if (usable.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
        callback(new BlockedAddressError(hostname), '', 0)
      } else if (options.all) {
        ;(callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable)
      } else {
        callback(null, usable[0]!.address, usable[0]!.family)
      }
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 0),
  )
}
