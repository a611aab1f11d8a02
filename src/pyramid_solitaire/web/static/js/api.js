// api.js: the only module that talks to the server.  Every answer is JSON; a refused request is an
// ApiError carrying the server's {code, message, details}.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code ? body.code : "network";
    this.details = body && body.details ? body.details : {};
  }
}

export async function call(method, path, body, lang) {
  const url = `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    throw new ApiError(0, null);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  rules: (lang) => call("GET", "/api/rules", undefined, lang),
  newGame: (request, lang) => call("POST", "/api/games", request, lang),
  get: (id, lang) => call("GET", `/api/games/${encodeURIComponent(id)}`, undefined, lang),
  tap: (id, target, lang) => call("POST", `/api/games/${encodeURIComponent(id)}/tap`, target, lang),
  stock: (id, lang) => call("POST", `/api/games/${encodeURIComponent(id)}/stock`, undefined, lang),
  command: (id, name, lang) => call("POST", `/api/games/${encodeURIComponent(id)}/${name}`, undefined, lang),
};
