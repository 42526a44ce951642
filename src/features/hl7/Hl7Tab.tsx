import { CommandScope } from '@/lib/commands';
import { InboundPanel } from './InboundPanel';
import { OutboundPanel } from './OutboundPanel';

/**
 * The organisation's HL7 tab (issue 36): orders in (the listener, the facility mapping, the message log) above, results
 * out (the destination, the outbox and its dead letters) below. The admin's organisation page renders this for its
 * administrators only.
 */
export default function Hl7Tab({ orgId }: { orgId: number }) {
  return (
    <CommandScope scope="hl7">
      <div className="flex flex-col gap-4" data-testid="hl7-tab">
        <InboundPanel orgId={orgId} />
        <OutboundPanel orgId={orgId} />
      </div>
    </CommandScope>
  );
}
