// FieldError is left out on purpose: sibling domain folders declare their own, and two `export *`
// of different FieldError types would clash in a parent index. It is structural; use any of them.
export * from './appearance';
export * from './embedding-domains';
export * from './hpp-page';
export * from './hpp-page-decide';
export {
  EmbeddingDomainsLimit,
  HPP_PAGE_PROBLEM_STATUS,
  HppPageConfigInvalid,
  HppPageConfigNotFound,
} from './hpp-page-errors';
export * from './hpp-page-events';
export * from './hpp-page-resource';
