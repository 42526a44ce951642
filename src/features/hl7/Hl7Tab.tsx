import { CommandScope } from '@/lib/commands';
import { OutboundPanel } from './OutboundPanel';

/**
 * The organisation's HL7 tab (issue 36): results out here; the inbound listener's panel (orders in, the message log)
 * joins it beside the outbound one. The admin's organisation page renders this for its administrators only.
 */
export default function Hl7Tab({ orgId }: { orgId: number }) {
  return (
    <CommandScope scope="hl7">
      <div className="flex flex-col gap-4" data-testid="hl7-tab">
        <OutboundPanel orgId={orgId} />
      </div>
    </CommandScope>
  );
}
