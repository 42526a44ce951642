import type { FastifyInstance } from 'fastify';
import type { DomainInfo } from '../../contract/domain';
import { domains } from '../db/schema';
import type { Deps } from '../deps';

export async function domainRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  // The page-view collector is the deployment's (ANALYTICS_URL), not the domain row's: null unless configured.
  const analyticsUrl = deps.config.analyticsUrl ?? null;
  app.get('/domain', { config: { public: true } }, async (): Promise<DomainInfo> => {
    const [d] = await deps.db.select().from(domains).limit(1);
    if (!d) return { displayName: 'RIS', company: null, hideSupportCompany: false, website: null, logo: null, bgImgUrl: null,
      allowRegistration: false, defaultExpertBucketId: null, isPet: false, displayDomainName: null, footer: null, analyticsUrl };
    const { id: _id, ...info } = d;
    return { ...info, analyticsUrl };
  });
}
