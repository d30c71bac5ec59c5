// The REST API (server/api/rest.cpp): small fetch helpers that throw with the server's message.
export async function getJson(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error((body && body.error) || `${path}: HTTP ${res.status}`);
  return body;
}

export async function exists(path) {
  try {
    const res = await fetch(path);
    return res.ok;
  } catch { return false; }
}

export const api = {
  catalog: () => getJson('/api/catalog'),
  games: (query = '') => getJson(`/api/games${query}`),
  game: (id) => getJson(`/api/games/${id}`),
  players: () => getJson('/api/players'),
  leaderboard: (game) => getJson(`/api/leaderboard?game=${encodeURIComponent(game)}`),
};
