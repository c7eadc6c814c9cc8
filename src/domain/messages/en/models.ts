/** Model providers and prompt runs. */
export const modelsEn = {
  'models.providerNotFound': 'Model provider not found',
  'models.kindInvalid': 'Choose OpenAI-compatible or Anthropic',
  'models.nameRequired': 'Name is required',
  'models.nameTooLong': 'Name must be at most 100 characters',
  'models.baseUrlInvalid': 'Enter a valid http:// or https:// URL',
  'models.baseUrlPrivate':
    'This URL points to a private, loopback or link-local address. Local models need MODELS_ALLOW_PRIVATE=1 on the server.',
  'models.baseUrlUnresolvable': 'This URL’s host name could not be resolved',
  'models.apiKeyRequired': 'API key is required',
  'models.apiKeyTooLong': 'API key must be at most 1000 characters',
  'models.modelInvalid': 'Model names are 1 to 200 characters',
  'models.tooManyModels': 'A provider may list at most 200 models',
  'models.defaultNotListed': 'The default model must be one of the listed models',
  'models.tooManyProviders': 'A space may have at most {max} model providers',
  'models.modelRequired': 'Choose a model: the version’s config names none and the provider has no default',
  'models.temperatureInvalid': 'Temperature must be between 0 and 2',
  'models.maxTokensInvalid': 'Max tokens must be a whole number from 1 to 200,000',
  'models.topPInvalid': 'Top P must be between 0 and 1',
  'models.tooManyRuns': 'You started too many runs. Please wait {seconds} seconds.',
  'models.tooManySpaceRuns':
    'This provider’s space started too many runs in the last minute. Please wait {seconds} seconds.',
  'models.keyUnreadable':
    'The stored key of this provider cannot be read (the server’s AUTH_SECRET changed). Enter the key again.',
  'models.upstreamUnauthorized':
    'The provider refused the API key (HTTP {status}). Check the key in Settings → Models.',
  'models.upstreamRateLimited':
    'The provider is limiting requests (HTTP 429). Try again in {seconds} seconds.',
  'models.upstreamRateLimitedNoTime': 'The provider is limiting requests (HTTP 429). Try again later.',
  'models.upstreamModelNotFound': 'The provider does not know the model “{model}”.',
  'models.upstreamRejected': 'The provider refused the request (HTTP {status}): {detail}',
  'models.upstreamFailed': 'The provider had an error (HTTP {status}). Try again later.',
  'models.upstreamTimeout': 'The provider did not answer within {seconds} seconds.',
  'models.upstreamUnreachable': 'The provider could not be reached at its base URL.',
  'models.upstreamInvalid': 'The provider’s answer could not be read.',
  'models.placeholderInvalid': 'A placeholder’s messages need a role (at most 50 characters) and a content',
  'models.placeholderTooLong': 'A placeholder message may have at most 50,000 characters',
  'models.tooManyPlaceholderMessages': 'The placeholders may hold at most 100 messages together',
  'models.modelsNotListed': 'This provider does not list its models; type them instead.',
  'models.providerRequired': 'Choose a model provider',
  'models.replyCancelled': 'The reply was stopped; nothing was saved',
  'models.upstreamEmpty': 'The model answered with no text.',
} as const
