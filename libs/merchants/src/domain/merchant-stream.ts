export const merchantStream = (merchantId: string): string => `merchant-${merchantId}`;
