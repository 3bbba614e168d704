-- Drives Neovim (headless, with init.lua) as a user would, and writes what it saw to $PSCONFIG_RESULT as JSON:
-- open $PSCONFIG_TEMPLATE, wait for the server's diagnostics, run code lenses with vim.lsp.codelens.run() (a
-- line with two lenses asks vim.ui.select, answered here by title), then apply the "Change to" quick fix with
-- vim.lsp.buf.code_action() on a line where non-ASCII text comes before the misspelt name (Neovim 0.7 sends the
-- diagnostic back with byte columns). Read by test/editors/neovim.test.ts.
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

  -- Code lenses, once each is resolved.
  wait('resolved code lenses', 60000, function()
    local lenses = vim.lsp.codelens.get(buf)
    if #lenses == 0 then
      return false
    end
    for _, l in ipairs(lenses) do
      if not l.command then
        return false
      end
    end
    return true
  end)
  for _, want in ipairs({ 'tasks for', '^schedule: ', '^Dashboard$', '^Open in Archive Explorer' }) do
    -- Neovim lists the lenses again, unresolved, when it refreshes them (CursorHold), and codelens.run() reads the
    -- title of every lens on the line: wait until all are resolved, then run at once (nothing yields in between).
    local lens
    wait('a resolved lens titled ' .. want, 60000, function()
      lens = nil
      for _, l in ipairs(vim.lsp.codelens.get(buf)) do
        if not l.command then
          return false
        end
        if l.command.title:find(want) then
          lens = l
        end
      end
      return lens ~= nil
    end)
    vim.api.nvim_win_set_cursor(0, { lens.range.start.line + 1, 0 })
    choose(function(title)
      return title:find(want) ~= nil
    end)
    local before = #out.messages
    vim.lsp.codelens.run()
    wait('the message of lens ' .. want, 60000, function()
      return #out.messages > before
    end)
    local message = out.messages[#out.messages]
    local file = message:match(' see (/.+)$')
    table.insert(out.lenses, {
      title = lens.command.title,
      command = lens.command.command,
      message = message,
      -- (The server removes its files when Neovim stops it: read them now.)
      text = file and vim.fn.filereadable(file) == 1 and table.concat(vim.fn.readfile(file), '\n') or vim.NIL,
    })
  end

  -- The quick fix, on the line of the misspelt group.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local line
  for i, l in ipairs(lines) do
    if l:find('"mesh-grop"', 1, true) then
      line = i
    end
  end
  out.before = table.concat(lines, '\n')
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
end

local ok, err = pcall(run)
if not ok then
  out.error = tostring(err)
end
finish()
