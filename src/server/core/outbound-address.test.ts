import { describe, expect, it } from 'vitest'
import { embeddedIPv4, ipv6Groups, isPrivateAddress } from './outbound-address.ts'

describe('the webhook address guard', () => {
  it('refuses private, loopback, link-local and reserved IPv4 and IPv6 addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fd00:ec2::254',
      'ff02::1',
      '2001:db8::1',
      'not an address',
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true])
    }
  })

  it('refuses the IPv6 ranges that carry an IPv4 address through a relay or gateway, whole', () => {
    for (const address of [
      // IPv4-compatible (::/96): 127.0.0.1, 10.0.0.1, and even a public address.
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      '::8.8.8.8',
      // 6to4 (2002::/16) of 127.0.0.1, 192.168.0.1 and 8.8.8.8.
      '2002:7f00:1::',
      '2002:c0a8:1::1',
      '2002:808:808::1',
      // Teredo (2001::/32): server and client (bit-flipped) addresses inside.
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001::7f00:1',
      // Local-use NAT64 (64:ff9b:1::/48).
      '64:ff9b:1::7f00:1',
      '64:ff9b:1:ffff::808:808',
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true])
    }
  })

  it('judges IPv4-mapped and well-known NAT64 addresses by the IPv4 address inside', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:10.0.0.1',
      '::ffff:169.254.169.254',
      '0:0:0:0:0:ffff:c0a8:0101',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::192.168.0.1',
    ]) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true])
    }
    for (const address of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::5db8:d822']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false])
    }
    expect(embeddedIPv4('64:ff9b::5db8:d822')).toBe('93.184.216.34')
    expect(embeddedIPv4('2606:4700::1111')).toBeNull()
  })

  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false])
    }
  })

  it('reads every spelling of an IPv6 address into its eight groups', () => {
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(ipv6Groups('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304])
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1])
    expect(ipv6Groups('1.2.3.4')).toBeNull()
  })
})
