-- Drives Neovim (headless, with init.lua) as a user would, and writes what it saw to $PSCONFIG_RESULT as JSON:
-- open $PSCONFIG_TEMPLATE, wait for the server's diagnostics, run the count lens of the task whose group exists
-- (pSConfig's agent rejects the whole template while the other's is misspelt), apply the "Change to" quick fix with
-- vim.lsp.buf.code_action() on a line where non-ASCII text comes before the misspelt name (Neovim 0.7 sends the
-- diagnostic back with byte columns), wait for the fixed version's diagnostics and lenses, then run code lenses
-- with vim.lsp.codelens.run() (a line with several lenses asks vim.ui.select, answered here by title). Read by
-- test/editors/neovim.test.ts.
local out = { messages = {}, lenses = {} }

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(out) }, os.getenv('PSCONFIG_RESULT'))
  vim.cmd('qa!')
end

local function wait(what, ms, cond)
  if not vim.wait(ms, cond, 50) then
    error('timed out waiting for ' .. what)
  end
end

-- Every window/showMessage the server sends is recorded, then shown as Neovim shows it.
local show = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, result, ctx, config)
  table.insert(out.messages, result.message)
  return show(err, result, ctx, config)
end

--- vim.ui.select answered with the first item whose text satisfies `pick`.
local function choose(pick)
  vim.ui.select = function(items, opts, on_choice)
    for _, item in ipairs(items) do
      local text = opts.format_item and opts.format_item(item) or tostring(item)
      if pick(text) then
        return on_choice(item)
      end
    end
    on_choice(nil)
  end
end

--- The 1-based number of the last line of `buf` holding `text`.
local function line_with(buf, text)
  local found
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find(text, 1, true) then
      found = i
    end
  end
  return found or error('no line with ' .. text)
end

--- The lens on line `line` (1-based) for which `pick(lens)` holds, once every lens is resolved.
local function resolved_lens(buf, line, what, pick)
  local lens
  wait('a resolved lens: ' .. what, 60000, function()
    lens = nil
    for _, l in ipairs(vim.lsp.codelens.get(buf)) do
      if not l.command then
        return false
      end
      if l.range.start.line == line - 1 and pick(l) then
        lens = l
      end
    end
    return lens ~= nil
  end)
  return lens
end

--- Runs, with vim.lsp.codelens.run() on its line, the lens on line `line` (1-based) for which `pick(lens)` holds:
--- its title, command, the server's message and the text of the file the message points to.
local function run_lens(buf, line, what, pick)
  -- Neovim lists the lenses again, unresolved, when it refreshes them, and codelens.run() reads the title of every
  -- lens on the line: wait until all are resolved, then run at once (nothing yields in between).
  local lens = resolved_lens(buf, line, what, pick)
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  -- (A line with several lenses asks vim.ui.select: answered with this lens's title.)
  choose(function(title)
    return title == lens.command.title
  end)
  local before = #out.messages
  vim.lsp.codelens.run()
  wait('the message of lens ' .. what, 60000, function()
    return #out.messages > before
  end)
  local message = out.messages[#out.messages]
  local file = message:match(' see (/.+)$')
  return {
    title = lens.command.title,
    command = lens.command.command,
    message = message,
    -- (The server removes its files when Neovim stops it: read them now.)
    text = file and vim.fn.filereadable(file) == 1 and table.concat(vim.fn.readfile(file), '\n') or vim.NIL,
  }
end

local function command_is(name)
  return function(lens)
    return lens.command.command == name
  end
end

local function unknown_group(buf)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'psconfig/unknown-group' then
      return true
    end
  end
  return false
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('PSCONFIG_TEMPLATE')))
  local buf = vim.api.nvim_get_current_buf()
  out.version = vim.version()
  wait('diagnostics', 60000, function()
    return #vim.diagnostic.get(buf) > 0
  end)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { code = d.code, lnum = d.lnum, col = d.col, message = d.message })
  end
  if not unknown_group(buf) then
    error('no unknown-group diagnostic before the fix')
  end

  -- While the group is misspelt: the count lens of the task whose group exists (pSConfig's agent rejects the
  -- whole template).
  local throughput = line_with(buf, '"throughput": {')
  out.misspelt_count = run_lens(buf, throughput, 'count of throughput', command_is('psconfig.server.showTasks'))

  -- The quick fix, on the line of the misspelt group.
  local line = line_with(buf, '"mesh-grop"')
  out.before = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  out.sent = vim.lsp.diagnostic.get_line_diagnostics(buf)
  choose(function(title)
    return title == 'Change to "mesh-group"'
  end)
  vim.lsp.buf.code_action()
  wait('the quick fix', 30000, function()
    return not vim.api.nvim_buf_get_lines(buf, line - 1, line, false)[1]:find('mesh-grop', 1, true)
  end)
  out.after = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')

  -- The fixed version reached the server once its diagnostics no longer name the group; its lenses are then asked
  -- for, as init.lua's CursorHold autocommand does (headless Neovim never pauses for it), and are the new version's
  -- once the fixed task's count lens counts tasks.
  wait("the fixed template's diagnostics", 60000, function()
    return not unknown_group(buf)
  end)
  vim.lsp.codelens.refresh()
  local fixed = line_with(buf, '"réseau-café ☕": {')
  resolved_lens(buf, fixed, 'count of the fixed task', function(l)
    return l.command.command == 'psconfig.server.showTasks' and l.command.title:find('tasks? for') ~= nil
  end)
  for _, want in ipairs({
    'psconfig.server.showTasks',
    'psconfig.server.showSchedule',
    'psconfig.server.showDashboard',
  }) do
    table.insert(out.lenses, run_lens(buf, throughput, want, command_is(want)))
  end
  local archive = line_with(buf, '"central": {')
  table.insert(out.lenses, run_lens(buf, archive, 'archive', command_is('psconfig.server.openArchive')))
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
finish()
