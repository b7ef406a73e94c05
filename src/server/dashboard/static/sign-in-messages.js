// @ts-check
// What the MCP sign-in banner says (mcp-sign-ins.js), in English, Chinese and Japanese; joined
// into messages.js. Same rules: every language has every key, with the same placeholders.

export const SIGN_IN_MESSAGES = {
  en: {
    mcpSignInTitle: '{server} needs you to sign in',
    mcpSignInText:
      'Its tools are unavailable until you do. Open the link in a browser on the computer Riverse runs on; it comes back to Riverse by itself.',
    mcpSignInOpen: 'Sign in to {server}',
  },
  zh: {
    mcpSignInTitle: '{server} 需要你登录',
    mcpSignInText: '登录前它的工具不可用。请在运行 Riverse 的电脑上用浏览器打开此链接；完成后会自动回到 Riverse。',
    mcpSignInOpen: '登录 {server}',
  },
  ja: {
    mcpSignInTitle: '{server} にサインインが必要です',
    mcpSignInText:
      'サインインするまでそのツールは使えません。Riverse が動いているコンピューターのブラウザーでリンクを開いてください。終わると自動で Riverse に戻ります。',
    mcpSignInOpen: '{server} にサインイン',
  },
};
