import { DomainError, NotFound } from '../../platform/src/problem';

/** One broken rule, rendered as an entry of the problem's `errors` (CONTRACT §7). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The HTTP status each code here is meant to answer with. problem-status.ts is the one table;
 * `hpp_page_config_not_found` belongs in it (unknown codes fall back to 422 there, which is
 * already right for `embedding_domains_limit`; `validation_error` is listed as 400).
 */
export const HPP_PAGE_PROBLEM_STATUS: Readonly<Record<string, number>> = {
  validation_error: 400,
  hpp_page_config_not_found: 404,
  embedding_domains_limit: 422,
};

/**
 * An appearance, an `is_active` or an embedding-domain list that breaks a validation rule
 * (400 `validation_error`). `errors` names every broken rule, e.g. `appearance.header.fontSize`.
 */
export class HppPageConfigInvalid extends DomainError {
  readonly code = 'validation_error';

  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((error) => `${error.field} ${error.message}`).join('; '));
  }
}

/** DELETE of a merchant override that does not exist (404 `hpp_page_config_not_found`). */
export class HppPageConfigNotFound extends NotFound {
  constructor(readonly merchantId: string) {
    super('hpp_page_config_not_found', `merchant ${merchantId} has no HPP page configuration override`);
  }
}

/** Adding would take the merchant's allow-list past its limit (422 `embedding_domains_limit`). */
export class EmbeddingDomainsLimit extends DomainError {
  readonly code = 'embedding_domains_limit';

  constructor(
    readonly limit: number,
    /** How many the list would hold after the merge. */
    readonly resulting: number,
  ) {
    super(
      `the embedding-domain allow-list may hold at most ${limit} domains; this would make it ${resulting}`,
    );
  }
}
