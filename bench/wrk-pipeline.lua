-- wrk request script for HTTP/1.1 pipelining: every call of request()
-- returns `depth` copies of the default request (wrk.format() with the
-- command line's method, path and headers), so wrk writes a whole window
-- at once and counts each response. Usage: wrk -s wrk-pipeline.lua URL -- 10
local batch

init = function (args)
  local depth = tonumber(args[1]) or 10
  local copies = {}
  for i = 1, depth do
    copies[i] = wrk.format()
  end
  batch = table.concat(copies)
end

request = function ()
  return batch
end
