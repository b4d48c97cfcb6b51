// WebRTC's constructors are gone from the scope after removeWebRtc, deletable or not.
import { describe, expect, it } from 'vitest';
import { removeWebRtc } from './remove-webrtc';

describe('removeWebRtc', () => {
  it('deletes the constructors, and overwrites one that cannot be deleted', () => {
    const scope: Record<string, unknown> = { RTCPeerConnection: class {}, fetch: () => 0 };
    Object.defineProperty(scope, 'webkitRTCPeerConnection', {
      value: class {},
      configurable: false,
      writable: true,
    });
    expect(removeWebRtc(scope).sort()).toEqual(['RTCPeerConnection', 'webkitRTCPeerConnection']);
    expect(scope.RTCPeerConnection).toBeUndefined();
    expect(scope.webkitRTCPeerConnection).toBeUndefined();
    expect(typeof scope.fetch).toBe('function');
  });
});
