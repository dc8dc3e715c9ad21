-- Argo CD health check for srt.dev/GpuCluster (srt-operator).
-- Argo CD runs it in gopher-lua (Lua 5.1) with only the base, table and package libraries (no
-- string or math library unless useOpenLibs is set), so only base functions and table.* are used.
-- Every field may be absent: nothing here assumes that status or conditions exist.
-- Embedded in manifests/argocd/argocd-cm-patch.yaml by update-argocd-cm-patch.sh (HealthLuaTest checks).
local hs = {}

local function tbl(v)
  if type(v) == "table" then
    return v
  end
  return nil
end

local function str(v)
  if type(v) == "string" and v ~= "" then
    return v
  end
  return nil
end

local function num(v)
  if type(v) == "number" then
    return v
  end
  if type(v) == "string" then
    return tonumber(v)
  end
  return nil
end

local o = tbl(obj) or {}
local metadata = tbl(o.metadata) or {}
local spec = tbl(o.spec) or {}
local status = tbl(o.status)
local generation = num(metadata.generation)

local function result(healthStatus, message)
  hs.status = healthStatus
  hs.message = message
  return hs
end

-- The condition of this type, unless it was written for an older generation.
local function condition(conditionType)
  local conditions = status and tbl(status.conditions)
  if conditions == nil then
    return nil
  end
  for _, c in ipairs(conditions) do
    if type(c) == "table" and c.type == conditionType then
      local observed = num(c.observedGeneration)
      if observed ~= nil and generation ~= nil and observed ~= generation then
        return nil
      end
      return c
    end
  end
  return nil
end

-- "Reason: message" of a condition.
local function explain(c, fallback)
  local reason = c and str(c.reason)
  local message = c and str(c.message)
  if reason ~= nil and message ~= nil then
    return reason .. ": " .. message
  end
  return message or reason or fallback
end

-- The strings of a list, joined with ", ".
local function join(list)
  local items = {}
  for _, v in ipairs(tbl(list) or {}) do
    if str(v) ~= nil then
      table.insert(items, v)
    end
  end
  if #items == 0 then
    return nil
  end
  return table.concat(items, ", ")
end

local observed = status and num(status.observedGeneration)
if status == nil or (generation ~= nil and observed ~= generation) then
  local waiting = "waiting for the operator to probe the host"
  if generation ~= nil then
    waiting = "waiting for the operator to observe generation " .. tostring(generation)
  end
  if status == nil then
    return result("Progressing", "No status yet; " .. waiting)
  end
  return result("Progressing", "Waiting for the operator to observe generation " .. tostring(generation))
end

local reachable = condition("Reachable")
if reachable ~= nil and reachable.status == "True" then
  local parts = { explain(reachable, "Reachable") }
  if str(status.slurmVersion) ~= nil then
    table.insert(parts, "Slurm " .. status.slurmVersion)
  end
  local partitions = join(status.partitions)
  if partitions ~= nil then
    table.insert(parts, "partitions: " .. partitions)
  end
  local gpus = tbl(status.gpus)
  if spec.mode == "direct" and gpus ~= nil and #gpus > 0 then
    table.insert(parts, tostring(#gpus) .. " GPUs")
  end
  return result("Healthy", table.concat(parts, "; "))
end
if reachable ~= nil and reachable.status == "False" then
  return result("Degraded", explain(reachable, "Reachable is False"))
end
return result("Progressing", explain(reachable, "Waiting for the first probe of the host"))
