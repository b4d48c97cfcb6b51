// Takes WebRTC's constructors off the page: a page CSP cannot govern WebRTC (a peer connection
// sends UDP to any STUN/TURN server it names), and Sift never uses it. A script running in the
// page could still find them in a fresh frame's realm, so this is a floor, not a wall; Sift runs
// no script but its own (ARCHITECTURE.md "Network"). Owns: that list. The scope is injected.

export const WEBRTC_GLOBALS = [
  'RTCPeerConnection',
  'webkitRTCPeerConnection',
  'RTCDataChannel',
  'RTCRtpSender',
  'RTCRtpReceiver',
  'RTCRtpTransceiver',
  'RTCIceCandidate',
  'RTCSessionDescription',
] as const;

/** Deletes (or, where it cannot, overwrites) each WebRTC global; returns those now gone. */
export function removeWebRtc(scope: object): string[] {
  const removed: string[] = [];
  for (const name of WEBRTC_GLOBALS) {
    if (!(name in scope)) continue;
    // A writable global that cannot be deleted is overwritten instead.
    if (!Reflect.deleteProperty(scope, name) || name in scope) Reflect.set(scope, name, undefined);
    if ((scope as Record<string, unknown>)[name] === undefined) removed.push(name);
  }
  return removed;
}
