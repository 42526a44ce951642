import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sandboxTradeParam, type SandboxTradeView } from '../../../contract/payments';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { parse } from '../../http/validate';
import { handleSandboxNotificationsWith, paymentProvider } from './index';
import { receiveNotification } from './notify';
import { isSandbox, type SandboxProvider } from './sandbox';

const pub = { config: { public: true } };

// The sandbox hands its notifications to the very function this route calls (index.ts says why it is set here).
handleSandboxNotificationsWith(receiveNotification);
/** A notification is a few hundred bytes; nothing bigger is one. */
const NOTIFY_BODY_LIMIT = 64 * 1024;

/**
 * Payments area, providers part (/work/notes/payments.md "Providers"): the channel's notify call and the sandbox's
 * confirmation page. All public: the channel has no session (its signature is its proof), and the sandbox page is
 * opened by the QR's holder (the `s` HMAC of the trade number is the proof).
 */
export async function providerRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  // The signature covers the body's exact bytes: this scope keeps JSON as the raw string it arrived as.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_req, body, done) => done(null, body));

    /**
     * POST payments/notify/{provider}: 204 when taken (a repeat included), otherwise 4xx/5xx, which WeChat Pay reads as
     * "deliver it again later" (it looks at the status only). The body is the house's { code, message } from the
     * catalogue, as every other answer: 401 PaymentNotificationInvalid, 404 NotFound, 500 OperationFailed.
     */
    scope.post('/payments/notify/:provider', { ...pub, bodyLimit: NOTIFY_BODY_LIMIT }, async (req, reply) => {
      const provider = paymentProvider(deps);
      const { provider: name } = req.params as { provider: string };
      if (name !== provider.name) throw new ApiError('NotFound', 'No such payment channel here');
      const raw = typeof req.body === 'string' ? req.body : '';
      try {
        await receiveNotification(deps, provider, req.headers, raw);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'PaymentNotificationInvalid') throw err;
        req.log.error({ err }, 'payment notification not settled');
        throw new ApiError('OperationFailed', 'Not settled; deliver it again');
      }
      return reply.status(204).send();
    });
  });

  /** The sandbox's routes exist only while it is the channel, and only for who holds the trade's `s`. */
  function sandboxOf(req: FastifyRequest): { sandbox: SandboxProvider; outTradeNo: string } {
    const provider = paymentProvider(deps);
    if (!isSandbox(provider)) throw new ApiError('NotFound');
    const { outTradeNo } = parse(sandboxTradeParam, req.params);
    const s = (req.query as { s?: unknown }).s;
    if (typeof s !== 'string' || !provider.checkSignature(outTradeNo, s)) throw new ApiError('Forbidden', 'This payment link is not valid');
    return { sandbox: provider, outTradeNo };
  }

  app.get('/payments/sandbox/:outTradeNo', pub, async (req): Promise<SandboxTradeView> => {
    const { sandbox, outTradeNo } = sandboxOf(req);
    return sandbox.view(outTradeNo);
  });
  app.post('/payments/sandbox/:outTradeNo/pay', pub, async (req: FastifyRequest, _reply: FastifyReply): Promise<SandboxTradeView> => {
    const { sandbox, outTradeNo } = sandboxOf(req);
    return sandbox.pay(outTradeNo);
  });
  app.post('/payments/sandbox/:outTradeNo/fail', pub, async (req): Promise<SandboxTradeView> => {
    const { sandbox, outTradeNo } = sandboxOf(req);
    return sandbox.fail(outTradeNo);
  });
}
