-- Requests the paths of the file named by the environment variable PATHS (one
-- per line), each thread starting at its own offset and going round in turn.
-- Used by benches/serve_random.sh.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do
  paths[#paths + 1] = line
end
local counter = 0
local threads = 0

function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end

function request()
  counter = counter + 1
  local i = (counter + (offset or 0)) % #paths + 1
  return wrk.format("GET", paths[i])
end
