export { toasts, createToastStore, type Toast, type ToastAction, type ToastInput, type ToastKind, type ToastPlacement, type ToastStore } from './store';
export { Toaster, ToastLane } from './Toaster';
