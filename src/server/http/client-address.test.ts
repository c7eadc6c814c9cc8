import { describe, expect, it } from 'vitest'
import { parseTrustProxy } from '../trust-proxy.ts'
import { addressGroup, normalizeAddress, resolveClientAddress } from './client-address.ts'

describe('TRUST_PROXY', () => {
  it('is none when unset, empty or 0', () => {
    for (const value of [undefined, '', ' ', '0']) expect(parseTrustProxy(value)).toEqual({ kind: 'none' })
  })

  it('is a number of hops or a list of addresses and CIDRs', () => {
    expect(parseTrustProxy('2')).toEqual({ kind: 'hops', hops: 2 })
    expect(parseTrustProxy('10.0.0.0/8, 192.0.2.7, fd00::/8').kind).toBe('networks')
  })

  it.each(['yes', '10.0.0.0/33', '10.0.0.0/', 'fd00::/129', '10.0.0.0/8,', '-1', '1.5'])(
    'refuses %j',
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(/neither a number of hops nor an IP address or CIDR/)
    },
  )
})

describe('the client address', () => {
  const none = parseTrustProxy(undefined)

  it('is the TCP peer without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('198.51.100.4', '203.0.113.9', none)).toBe('198.51.100.4')
    expect(resolveClientAddress('::ffff:198.51.100.4', undefined, none)).toBe('198.51.100.4')
  })

  it('behind N trusted hops is the address the outermost trusted proxy saw', () => {
    const one = parseTrustProxy('1')
    expect(resolveClientAddress('10.0.0.2', '203.0.113.9', one)).toBe('203.0.113.9')
    // A client cannot push itself further left: its own entries come before the proxy's.
    expect(resolveClientAddress('10.0.0.2', '6.6.6.6, 203.0.113.9', one)).toBe('203.0.113.9')
    expect(resolveClientAddress('10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.1', parseTrustProxy('2'))).toBe(
      '203.0.113.9',
    )
    // Fewer entries than hops: the leftmost there is.
    expect(resolveClientAddress('10.0.0.2', undefined, one)).toBe('10.0.0.2')
  })

  it('behind trusted networks is the first address from the right outside them', () => {
    const networks = parseTrustProxy('10.0.0.0/8, fd00::/8')
    expect(resolveClientAddress('10.0.0.2', '6.6.6.6, 203.0.113.9, 10.1.1.1', networks)).toBe('203.0.113.9')
    expect(resolveClientAddress('fd00::2', '[2001:db8::7]:443', networks)).toBe('2001:db8::7')
    // A peer outside the networks is the client, whatever it forwards.
    expect(resolveClientAddress('198.51.100.4', '203.0.113.9', networks)).toBe('198.51.100.4')
    // Garbage written where a proxy's entry should be: the peer.
    expect(resolveClientAddress('10.0.0.2', 'not-an-address', networks)).toBe('10.0.0.2')
  })

  it('is one spelling per address', () => {
    expect(normalizeAddress(' 2001:DB8::1 ')).toBe('2001:db8::1')
    expect(normalizeAddress('192.0.2.1:8080')).toBe('192.0.2.1')
    expect(normalizeAddress('unknown')).toBeNull()
  })
})

describe('rate limits count', () => {
  it('IPv4 addresses one by one', () => {
    expect(addressGroup('192.0.2.1')).toBe('192.0.2.1')
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1')
  })

  it('IPv6 addresses by their /64, however they are written', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressGroup('::1')).toBe('0:0:0:0::/64')
    expect(addressGroup('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(addressGroup('2001:db8:1:2::1'))
  })
})
