/** The call queue's desk polls with the shared hook (the registry desk polls too: MPPS progress). */
export { usePolling } from '@/lib/usePolling';
