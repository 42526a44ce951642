import type { Deps } from '../deps';
import type { AssociationRecord } from './association';
import type { dimse } from './dimse';
import type { Services } from './services';

/** The library's request, context and data set types, as the SCP's handlers (./listener.ts and ./scp*.ts) name them. */
export type Association = InstanceType<typeof dimse.association.Association>;
export type PresentationContext = InstanceType<typeof dimse.association.PresentationContext>;
export type CStoreRequest = InstanceType<typeof dimse.requests.CStoreRequest>;
export type CEchoRequest = InstanceType<typeof dimse.requests.CEchoRequest>;
export type CFindRequest = InstanceType<typeof dimse.requests.CFindRequest>;
export type CMoveRequest = InstanceType<typeof dimse.requests.CMoveRequest>;
export type CGetRequest = InstanceType<typeof dimse.requests.CGetRequest>;
export type NCreateRequest = InstanceType<typeof dimse.requests.NCreateRequest>;
export type NSetRequest = InstanceType<typeof dimse.requests.NSetRequest>;
export type CCancelRequest = InstanceType<typeof dimse.requests.CCancelRequest>;
export type Dataset = InstanceType<typeof dimse.Dataset>;

/** What every association's SCP is given by the listener. */
export interface ScpContext {
  deps: Deps;
  aeTitle: string;
  record: AssociationRecord;
  svc: Services;
  track: <T>(p: Promise<T>) => Promise<T>;
}

/** One association as its handlers read it: the listener's context, and what the association has settled so far. */
export interface ScpView {
  readonly ctx: ScpContext;
  /** The caller's organisation, once the association is accepted. */
  readonly bucketId: number | null;
  readonly callingAe: string;
  /** The transfer syntax of the presentation context the request being handled came on. */
  readonly contextSyntax: string;
}
