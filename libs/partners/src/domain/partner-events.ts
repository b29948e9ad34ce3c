/** Stored partner events. Stored types are never renamed or reshaped; add new ones instead. */

export interface BusinessAddress {
  address_line1?: string;
  address_line2?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
}

export interface PartnerCreated {
  type: 'PartnerCreated';
  data: {
    partnerId: string;
    name: string;
    contactEmail: string;
    contactName: string;
    dba: string | null;
    partnerType: string;
    commercialModel: string;
    businessAddress: BusinessAddress | null;
    rateLimitTier: string;
    avsDeclinePolicy: string;
    createdAt: string;
  };
}

export interface PartnerConfigChanged {
  type: 'PartnerConfigChanged';
  /** Only the fields that changed are present. */
  data: {
    partnerId: string;
    rateLimitTier?: string;
    avsDeclinePolicy?: string;
    changedAt: string;
  };
}

export interface PartnerCertified {
  type: 'PartnerCertified';
  data: { partnerId: string; certifiedAt: string };
}

export interface PartnerCertificationReset {
  type: 'PartnerCertificationReset';
  data: { partnerId: string; resetAt: string };
}

export type PartnerEvent =
  PartnerCreated | PartnerConfigChanged | PartnerCertified | PartnerCertificationReset;
