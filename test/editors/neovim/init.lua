-- A minimal Neovim configuration for the pSConfig language server, with only Neovim's built-in LSP client
-- (`vim.lsp.start_client`, which every Neovim from 0.5 has; docs/other-editors.md gives the 0.8+ and nvim-lspconfig
-- forms). The tests start Neovim 0.7 (Debian 12) with it: `nvim --headless -u init.lua`.
-- PSCONFIG_LANGUAGE_SERVER: the binary (default: psconfig-language-server on PATH).
local server = os.getenv('PSCONFIG_LANGUAGE_SERVER') or 'psconfig-language-server'

local client_id = vim.lsp.start_client({
  name = 'psconfig',
  cmd = { server, '--stdio' },
  root_dir = vim.fn.getcwd(),
  -- Answered to the server's workspace/configuration (section `psconfig`): jq on PATH.
  settings = { psconfig = { jq = { path = 'jq' } } },
  -- Code lenses, shown as virtual text and run with vim.lsp.codelens.run(): asked for once the server is ready for
  -- this buffer (a refresh sent before that is never answered, and Neovim 0.7 then refreshes no more).
  on_attach = function(_, bufnr)
    vim.lsp.codelens.refresh()
    vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave' }, {
      buffer = bufnr,
      callback = vim.lsp.codelens.refresh,
    })
  end,
})

vim.api.nvim_create_autocmd('BufReadPost', {
  pattern = '*.psconfig.json',
  callback = function(args)
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
