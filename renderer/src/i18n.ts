/** All user-visible strings, in English and Simplified Chinese. A missing key falls back to English. */
const en = {
  'app.name': 'Mnemo',
  'app.tagline': 'Your offline assistant that remembers',
  'threads.title': 'Threads',
  'threads.new': 'New thread',
  'threads.empty': 'No threads yet. Start one to chat with your local model.',
  'threads.untitled': 'Untitled thread',
  'threads.incognito': 'Incognito',
  'chat.placeholder': 'Pick a thread or start a new one.',
  'status.connected': 'Connected',
  'status.disconnected': 'Reconnecting to Mnemo…',
  'status.schema': 'Database',
  'status.data': 'Data folder',
  'error.missingToken': 'This page needs the link that "npm run web" printed (it carries an access token). Open that link instead.',
  'error.generic': 'Something went wrong',
  'error.dismiss': 'Dismiss',
} as const;

export type MessageKey = keyof typeof en;

const zhCN: Partial<Record<MessageKey, string>> = {
  'app.tagline': '会记忆的离线助手',
  'threads.title': '对话',
  'threads.new': '新对话',
  'threads.empty': '还没有对话。新建一个，与本地模型聊天。',
  'threads.untitled': '未命名对话',
  'threads.incognito': '无痕',
  'chat.placeholder': '选择一个对话，或新建一个。',
  'status.connected': '已连接',
  'status.disconnected': '正在重新连接 Mnemo…',
  'status.schema': '数据库',
  'status.data': '数据文件夹',
  'error.missingToken': '此页面需要 "npm run web" 打印的链接（其中包含访问令牌）。请改为打开那个链接。',
  'error.generic': '出错了',
  'error.dismiss': '关闭',
};

export type Language = 'en' | 'zh-CN';

export function translate(language: Language, key: MessageKey): string {
  return (language === 'zh-CN' ? zhCN[key] : undefined) ?? en[key];
}
