// The provider registry: every provider module, by id.
import type { ProviderId } from '../shared/web-api';
import { arxiv } from './provider-arxiv';
import { brave } from './provider-brave';
import { exa } from './provider-exa';
import { perplexity } from './provider-perplexity';
import { searxng } from './provider-searxng';
import { semanticScholar } from './provider-semantic-scholar';
import { tavily } from './provider-tavily';
import type { ProviderDefinition } from './provider-types';

export const PROVIDERS: Record<ProviderId, ProviderDefinition> = {
  tavily,
  exa,
  perplexity,
  brave,
  'semantic-scholar': semanticScholar,
  arxiv,
  searxng,
};
