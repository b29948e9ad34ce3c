export const partnerStream = (partnerId: string): string => `partner-${partnerId}`;
