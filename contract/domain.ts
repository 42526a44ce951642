/** core §3 Domain info. */
export interface DomainInfo {
  displayName: string;
  company: string | null;
  hideSupportCompany: boolean;
  website: string | null;
  logo: string | null;
  bgImgUrl: string | null;
  allowRegistration: boolean;
  defaultExpertBucketId: number | null;
  isPet: boolean;
  displayDomainName: string | null;
  footer: string | null;
  /**
   * A self-hosted page-view collector (the deployment's ANALYTICS_URL); null (the default) sends no page views. Not in
   * the spec's field list: the spec's third-party statistics host, made opt-in and local (docs/deployment.md).
   */
  analyticsUrl: string | null;
}

/** core §3 Group, as groups/mine answers it for the signed-in account. */
export interface Group {
  id: number;
  accessLevel: 0 | 1;
  displayName: string;
  domainName: string | null;
  openTelemed: boolean;
  enableRegistry: boolean;
  enableStat: boolean;
  enableConsultation: boolean;
  autoNotifyAudio: string | null;
  autoConsulNotifyAudio: string | null;
  defaultConsultationBucketId: number | null;
  defaultExpertBucketId: number | null;
  isGroupKb: boolean;
  featEncryptionViewerOn: boolean;
  enableCalling: boolean;
  openPrivateCloud: string;
  allowOverview: boolean;
  enableCredit: boolean;
  pathologyUrl: string | null;
  allowAccountMgmt: boolean;
  /**
   * Whether this account may open the group's statistics (areas §6): statistics are on, and it administers the group
   * or holds statistics_report in one of the group's organisations. GET statistics/groups lists the same groups.
   */
  readsStatistics: boolean;
}
