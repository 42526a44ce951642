/** The order list and its detail (issue 13: /orders, /orders/{id}). */
export const ordersPath = '/orders';
export const orderDetailPath = (id: number) => `/orders/${id}`;
