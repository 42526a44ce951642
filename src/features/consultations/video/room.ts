import { Room, RoomEvent, Track, type RemoteTrack } from 'livekit-client';

/** What the video panel needs of a live room; this module is loaded only when someone joins (its own chunk). */
export interface LiveRoom {
  leave(): Promise<void>;
}

export interface RoomCallbacks {
  /** A remote camera or microphone arrived: the panel gives it an element to play in. */
  onTrack(sid: string, element: HTMLMediaElement, kind: 'video' | 'audio', who: string): void;
  onTrackGone(sid: string): void;
  onLocalVideo(element: HTMLVideoElement): void;
  onDisconnected(): void;
}

/** Joins the LiveKit room with the token the server gave, sends camera and microphone, plays what others send. */
export async function joinRoom(url: string, token: string, callbacks: RoomCallbacks): Promise<LiveRoom> {
  const room = new Room({ adaptiveStream: true, dynacast: true });
  room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, publication, participant) => {
    if (track.kind !== Track.Kind.Video && track.kind !== Track.Kind.Audio) return;
    const element = track.attach();
    callbacks.onTrack(publication.trackSid, element, track.kind === Track.Kind.Video ? 'video' : 'audio', participant.name || participant.identity);
  });
  room.on(RoomEvent.TrackUnsubscribed, (track: RemoteTrack, publication) => {
    track.detach();
    callbacks.onTrackGone(publication.trackSid);
  });
  room.on(RoomEvent.Disconnected, () => callbacks.onDisconnected());
  await room.connect(url, token);
  try {
    await room.localParticipant.enableCameraAndMicrophone();
    const camera = room.localParticipant.getTrackPublication(Track.Source.Camera)?.track;
    if (camera) callbacks.onLocalVideo(camera.attach() as HTMLVideoElement);
  } catch {
    // No camera or microphone (or refused): stay in the room to see and hear the others.
  }
  return { leave: () => room.disconnect() };
}
