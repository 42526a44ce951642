import type { ExpertProduct } from '../../../../contract/payments';

/**
 * Areas §5: at least one organisation, paid and free never together. The client refuses a mix at the click, before
 * asking the server (which refuses it too, with ExpertTargetsMixed).
 */
export type Toggle = { chosen: number[] } | { refused: 'ExpertTargetsMixed' } | { refused: 'ExpertRequestOpen'; orderId: number };

export function toggleTarget(chosen: readonly number[], products: readonly ExpertProduct[], bucketId: number): Toggle {
  if (chosen.includes(bucketId)) return { chosen: chosen.filter((id) => id !== bucketId) };
  const product = products.find((p) => p.bucketId === bucketId);
  if (!product) return { chosen: [...chosen] };
  // An organisation already asked for this exam (and not withdrawn or refunded) is not asked again: no double billing.
  if (product.openOrderId !== null) return { refused: 'ExpertRequestOpen', orderId: product.openOrderId };
  const mixes = chosen.some((id) => products.find((p) => p.bucketId === id)?.free !== product.free);
  return mixes ? { refused: 'ExpertTargetsMixed' } : { chosen: [...chosen, bucketId] };
}

/** The sum in fen of the chosen organisations' prices (free ones count 0). */
export function totalFen(chosen: readonly number[], products: readonly ExpertProduct[]): number {
  return products.filter((p) => chosen.includes(p.bucketId)).reduce((sum, p) => sum + (p.free ? 0 : p.priceFen), 0);
}

/** Why the choice cannot be sent as it is, or null. */
export function selectionProblem(chosen: readonly number[], products: readonly ExpertProduct[]): 'needOne' | 'ExpertTargetsMixed' | null {
  if (chosen.length === 0) return 'needOne';
  const kinds = new Set(products.filter((p) => chosen.includes(p.bucketId)).map((p) => p.free));
  return kinds.size > 1 ? 'ExpertTargetsMixed' : null;
}
