/** The OpenAPI 3.1 document of the API, made from this contract's schemas (signed-in operators). */
export const OPENAPI_PATH = '/api/openapi.json';
