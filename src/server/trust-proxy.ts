import { BlockList, isIP } from 'node:net'

/**
 * Which proxies in front of the app are trusted to say who the client is (TRUST_PROXY): none (the
 * TCP peer is the client), a number of hops, or the networks the proxies are in.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'networks'; networks: BlockList; description: string }

export const trustNoProxy: TrustProxy = { kind: 'none' }

/**
 * Reads TRUST_PROXY: empty for none, a whole number of hops ("1": one proxy, whose peer address is
 * the client), or a comma-separated list of addresses and CIDRs of the proxies. Throws a one-line
 * message for anything else.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? ''
  if (text === '' || text === '0') return trustNoProxy
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) }
  const networks = new BlockList()
  for (const entry of text.split(',').map((part) => part.trim())) {
    const [address = '', prefix] = entry.split('/')
    const family = isIP(address)
    const bits = family === 4 ? 32 : 128
    const length = prefix === undefined ? bits : Number(prefix)
    if (family === 0 || !Number.isInteger(length) || length < 0 || length > bits || prefix === '') {
      throw new Error(`"${entry}" is neither a number of hops nor an IP address or CIDR`)
    }
    networks.addSubnet(address, length, family === 4 ? 'ipv4' : 'ipv6')
  }
  return { kind: 'networks', networks, description: text }
}
