import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import { REPORT_ACTIONS, actionInput, examReportsQuery } from '../../contract/reports';
import { authOf } from '../auth/plugin';
import type { Deps } from '../deps';
import { parse } from '../http/validate';
import { ensureExamReport, listExamReports } from './examReports';
import { actorIn, readableReport } from './load';
import { printRoutes } from './print';
import { qualityRoutes } from './quality';
import { runAction } from './runAction';
import { templateRoutes } from './templates';
import { traceRoutes } from './traces';
import { namesFor, toView } from './view';

/** The report area (core §7 "Reports"): lifecycle actions, detail, the exam's reports, traces, quality, print data. */
export async function reportRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  // One route per action, so an unknown path stays a 404 and other areas' reports/{id}/... paths are untouched.
  for (const action of REPORT_ACTIONS) {
    const input = actionInput(action);
    app.post(`/reports/:id/${action}`, async (req) => {
      const { id } = parse(idParam, req.params);
      const body = parse(input, req.body);
      return runAction(deps, await authOf(req).access(), id, action, body);
    });
  }

  app.get('/reports/:id/detail', async (req) => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    const loaded = await readableReport(deps.db, access, id);
    return toView(loaded, actorIn(access, loaded.row.bucketId), await namesFor(deps.db, [loaded.row]));
  });

  app.get('/exams/:id/reports', async (req) => {
    const { id } = parse(idParam, req.params);
    const { deleted } = parse(examReportsQuery, req.query);
    return listExamReports(deps.db, await authOf(req).access(), id, deleted === 'true');
  });

  app.post('/exams/:id/reports', async (req, reply) => {
    const { id } = parse(idParam, req.params);
    const { view, created } = await ensureExamReport(deps, await authOf(req).access(), id);
    return reply.status(created ? 201 : 200).send(view);
  });

  await app.register(traceRoutes, { deps });
  await app.register(qualityRoutes, { deps });
  await app.register(printRoutes, { deps });
  await app.register(templateRoutes, { deps });
}
