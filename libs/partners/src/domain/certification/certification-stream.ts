/** One stream per partner holds its flows, facts and re-certification requests. */
export const certificationStream = (partnerId: string): string => `certification-${partnerId}`;
