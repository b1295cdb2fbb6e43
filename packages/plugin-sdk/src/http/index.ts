export { httpFetch, type HttpFetchHeaders, type HttpFetchInit, type HttpFetchResponse } from "./http-fetch.js";
