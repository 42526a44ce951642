import { AccessToken } from 'livekit-server-sdk';
import type { RtcToken } from '../../contract/consultations';
import type { LiveKitConfig } from '../config';

/** A consultation's video call lasts well under two hours; a longer one asks for a new token (docs/decisions.md). */
export const RTC_TOKEN_TTL_SECONDS = 2 * 3600;

/**
 * A LiveKit room token (docs/deployment.md "Video consultations"): it lets one account join one room, publish its
 * camera and microphone and receive the others'. The SFU checks the signature with the shared API secret; the
 * identity is the account id, so the same person on two devices is one participant.
 */
export async function rtcToken(config: LiveKitConfig, o: { room: string; accountId: number; name: string; now: Date }): Promise<RtcToken> {
  const identity = String(o.accountId);
  const token = new AccessToken(config.apiKey, config.apiSecret, { identity, name: o.name, ttl: RTC_TOKEN_TTL_SECONDS });
  token.addGrant({ roomJoin: true, room: o.room, canPublish: true, canSubscribe: true });
  return {
    configured: true, url: config.url, token: await token.toJwt(), room: o.room, identity,
    expiresAt: new Date(o.now.getTime() + RTC_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
}

/**
 * The SFU's origins for the page's Content-Security-Policy (connect-src): its WebSocket signalling and the https
 * check livekit-client makes when a connection fails. Nothing when video is off.
 */
export function rtcOrigins(config: LiveKitConfig | null | undefined): string[] {
  if (!config) return [];
  const url = new URL(config.url);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  return [`${secure ? 'wss' : 'ws'}://${url.host}`, `${secure ? 'https' : 'http'}://${url.host}`];
}
