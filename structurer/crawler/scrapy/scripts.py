"""The Lua scripts of the distributed crawl state: one per step that must be atomic.

Input: the Redis keys and arguments :class:`~structurer.crawler.scrapy.state.RedisState`
passes (named in the comment above each script). Output: what each step returns (the
links a page claimed, the records a worker claimed, whether a page of a URL pattern may
be counted). A step is one script so that two workers never both win what only one may
have (a link, a record, a page of a pattern's budget), and a worker killed between two
steps leaves a state the others can finish.
"""

from __future__ import annotations

__all__ = ["CLAIM_RECORDS", "FINISH_DETAIL", "FINISH_PAGE", "PATTERN", "SEED", "SEED_LOCK_MS",
           "STORE_PAGE"]

# KEYS of the claiming scripts: unemitted, emitted, claims, waiting, seeded, pending,
# products, details; ARGV starts with worker, site, base (the site's key prefix)
_CLAIM = """
local function claim(force, only)
  if not force and (redis.call('EXISTS', KEYS[5]) == 0 or redis.call('SCARD', KEYS[6]) > 0) then
    return {}
  end
  local keys = only
  if keys == nil then
    keys = redis.call('SMEMBERS', KEYS[1])
    if force then for _, k in ipairs(redis.call('SMEMBERS', KEYS[4])) do keys[#keys + 1] = k end end
  end
  table.sort(keys)
  local rows = {}
  for _, key in ipairs(keys) do
    local ready = redis.call('SREM', KEYS[1], key) == 1
    if only == nil and force and redis.call('SREM', KEYS[4], key) == 1 then ready = true end
    if ready and redis.call('HSETNX', KEYS[2], key, ARGV[1]) == 1 then
      redis.call('RPUSH', KEYS[3], ARGV[2] .. '\\t' .. key)
      rows[#rows + 1] = {key, redis.call('HGET', KEYS[7], key) or '',
                         redis.call('HGET', KEYS[8], key) or '',
                         redis.call('HGETALL', ARGV[3] .. 'listings:' .. key)}
    end
  end
  return rows
end
local function clear(from)
  for i = from, #ARGV, 2 do redis.call('HDEL', ARGV[i], ARGV[i + 1]) end
end
"""
# ARGV[4]: '1' to force, ARGV[5..]: keys to claim (none: every settled product)
CLAIM_RECORDS = _CLAIM + """
local only = nil
if #ARGV > 4 then only = {} for i = 5, #ARGV do only[#only + 1] = ARGV[i] end end
return claim(ARGV[4] == '1', only)
"""
# ARGV[4]: the page; ARGV[5..]: tokens
FINISH_PAGE = _CLAIM + """
redis.call('SREM', KEYS[6], ARGV[4])
clear(5)
return claim(false, nil)
"""
# ARGV[4..7]: key, url, detail JSON ('null': failed), '1' for a start page; ARGV[8..]: tokens
FINISH_DETAIL = _CLAIM + """
local key = ARGV[4]
redis.call('HSETNX', KEYS[7], key, ARGV[5])
if ARGV[6] ~= 'null' or redis.call('HEXISTS', KEYS[8], key) == 0 then
  redis.call('HSET', KEYS[8], key, ARGV[6])
end
redis.call('SREM', KEYS[4], key)
if redis.call('HEXISTS', KEYS[2], key) == 0 then redis.call('SADD', KEYS[1], key) end
if ARGV[7] == '1' then redis.call('SREM', KEYS[6], key) end
clear(8)
return claim(false, {key})
"""
# KEYS: known, pending, prefixes, products, waiting, unemitted
# ARGV: base, page, path JSON, recovered, #links, links..., #prefixes, (prefix, path)...,
# then (key, url, detail '1'/'0', fields JSON) per item
STORE_PAGE = """
local base, page, path = ARGV[1], ARGV[2], ARGV[3]
local claimed, i = {}, 6
for j = i, i + tonumber(ARGV[5]) - 1 do
  local key = ARGV[j]
  if redis.call('SADD', KEYS[1], key) == 1 then
    redis.call('SADD', KEYS[2], key); claimed[#claimed + 1] = key
  elseif ARGV[4] == '1' and redis.call('SISMEMBER', KEYS[2], key) == 1 then
    claimed[#claimed + 1] = key
  end
end
i = i + tonumber(ARGV[5])
local prefixes = tonumber(ARGV[i])
for j = i + 1, i + 2 * prefixes, 2 do redis.call('HSETNX', KEYS[3], ARGV[j], ARGV[j + 1]) end
for j = i + 1 + 2 * prefixes, #ARGV, 4 do
  local key = ARGV[j]
  redis.call('HSET', base .. 'listings:' .. key, page, '[' .. path .. ',' .. ARGV[j + 3] .. ']')
  if redis.call('HSETNX', KEYS[4], key, ARGV[j + 1]) == 1 then
    if ARGV[j + 2] == '1' then redis.call('SADD', KEYS[5], key)
    else redis.call('SADD', KEYS[6], key) end
  end
end
return claimed
"""
# one worker seeds a site; if it dies before its start request is queued, its restart
# or, once its lock expired, an idle worker seeds the site again
SEED = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if not redis.call('SET', KEYS[4], ARGV[3], 'NX', 'PX', ARGV[2])
   and redis.call('GET', KEYS[4]) ~= ARGV[3] then return 0 end
redis.call('SADD', KEYS[2], ARGV[1]); redis.call('SADD', KEYS[3], ARGV[1]); return 1
"""
SEED_LOCK_MS = 10_000   # lease of the seeding lock: a protocol constant of the workers
# KEYS: patterns (pattern -> pages counted), known, counted (page -> its pattern);
# ARGV: pattern, cap, page. A page is counted once, whichever worker (and however many
# pages linking it) asks first: the check, the count and the page's mark are one step,
# so two workers reading pages that link the same new page do not both spend the budget
PATTERN = """
if redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 1 then return 1 end
if redis.call('HEXISTS', KEYS[3], ARGV[3]) == 1 then return 1 end
if tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[3], ARGV[3], ARGV[1])
return 1
"""
