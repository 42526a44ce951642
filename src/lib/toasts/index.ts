export { toasts, createToastStore, type Toast, type ToastInput, type ToastKind, type ToastPlacement, type ToastStore } from './store';
export { Toaster, ToastLane } from './Toaster';
